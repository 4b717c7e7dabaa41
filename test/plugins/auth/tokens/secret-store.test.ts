import { chmodSync, statSync, writeFileSync } from 'node:fs';
import test from 'ava';
import { loadOrCreateSecret, SECRET_FILE } from '../../../../plugins/auth/tokens/secret-store.js';
import { recordingLogger, tempStorage } from '../auth-harness.js';

test('the secret is created once with mode 0600 and read back the same', async (t) => {
  const storage = tempStorage();
  const { logger } = recordingLogger();
  const first = await loadOrCreateSecret(storage, logger);
  t.is(first.length, 32);
  t.is(statSync(storage.path(SECRET_FILE)).mode & 0o777, 0o600);
  const again = await loadOrCreateSecret(storage, logger);
  t.true(first.equals(again));
  t.false(first.equals(await loadOrCreateSecret(tempStorage(), logger)));
});

test('a secret file readable by others is tightened to 0600 with a warning', async (t) => {
  const storage = tempStorage();
  const { logger, lines } = recordingLogger();
  const secret = await loadOrCreateSecret(storage, logger);
  chmodSync(storage.path(SECRET_FILE), 0o644);
  t.true(secret.equals(await loadOrCreateSecret(storage, logger)));
  t.is(statSync(storage.path(SECRET_FILE)).mode & 0o777, 0o600);
  t.true(lines.some((line) => line.includes('loose permissions')));
  t.false(lines.join('').includes(secret.toString('base64url')));
});

test('a file that holds no real secret stops the start with a clear message', async (t) => {
  const storage = tempStorage();
  const { logger } = recordingLogger();
  await loadOrCreateSecret(storage, logger);
  writeFileSync(storage.path(SECRET_FILE), 'short\n');
  const error = await t.throwsAsync(loadOrCreateSecret(storage, logger));
  t.regex(error?.message ?? '', /jwt-secret.*delete it/);
});
