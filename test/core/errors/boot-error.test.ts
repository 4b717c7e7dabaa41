import test from 'ava';
import { BOOT_ERROR_CODES, BootError, bootErrorCode } from '../../../core/errors/boot-error.js';

test('a boot error leads its message with its stable code', (t) => {
  const error = new BootError('STACKD_DEPENDENCY_MISSING', "plugin 'a' depends on 'b'");
  t.is(error.message, "STACKD_DEPENDENCY_MISSING: plugin 'a' depends on 'b'");
  t.is(error.code, 'STACKD_DEPENDENCY_MISSING');
});

test('bootErrorCode finds the code through wrapping errors', (t) => {
  const inner = new BootError('STACKD_HOOK_TIMEOUT', 'start did not finish');
  const outer = new Error('plugin x failed', { cause: inner });
  t.is(bootErrorCode(outer), 'STACKD_HOOK_TIMEOUT');
  t.is(bootErrorCode(new Error('plain')), undefined);
});

test('every code is STACKD_ prefixed and described', (t) => {
  for (const [code, meaning] of Object.entries(BOOT_ERROR_CODES)) {
    t.regex(code, /^STACKD_[A-Z_]+$/);
    t.true(meaning.length > 10, code);
  }
});
