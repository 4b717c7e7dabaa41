/** What a failed job records: the disk's refusals get a code and a plain reason. */
import test from 'ava';
import { jobFailure } from '../../../plugins/symlinks/io-failure.js';

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

test('a full disk is STORAGE_FULL with the reason and the system message', (t) => {
  const failure = jobFailure(errno('ENOSPC', 'ENOSPC: no space left on device, write'));
  t.is(failure.code, 'STORAGE_FULL');
  t.regex(failure.message, /^Storage failure: no space left on the device \(ENOSPC: .*\)$/);
  t.is(jobFailure(errno('EROFS', 'EROFS: read-only file system')).code, 'STORAGE_UNWRITABLE');
});

test('any other error keeps its message and has no code', (t) => {
  t.deepEqual(jobFailure(new Error('boom')), { message: 'boom' });
  t.deepEqual(jobFailure('text'), { message: 'text' });
});
