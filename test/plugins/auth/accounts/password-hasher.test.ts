import test from 'ava';
import { PasswordHasher } from '../../../../plugins/auth/accounts/password-hasher.js';
import { TEST_COST_LOG2 } from '../auth-harness.js';

const hasher = new PasswordHasher(TEST_COST_LOG2);

test('a hash verifies its password and no other', async (t) => {
  const hash = await hasher.hash('correct horse battery');
  t.true(await hasher.verify('correct horse battery', hash));
  t.false(await hasher.verify('correct horse batterY', hash));
  t.false(await hasher.verify('', hash));
});

test('the hash is salted, self-describing and never contains the password', async (t) => {
  const [first, second] = await Promise.all([
    hasher.hash('planted-password-123'),
    hasher.hash('planted-password-123'),
  ]);
  t.not(first, second);
  t.regex(first, /^scrypt\$14\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
  t.false(first.includes('planted-password-123'));
  t.false(Buffer.from(first).includes(Buffer.from('planted-password-123').toString('base64url')));
});

test('a hash made with another cost still verifies (parameters come from the hash)', async (t) => {
  const stronger = new PasswordHasher(15);
  const hash = await stronger.hash('another password');
  t.true(hash.startsWith('scrypt$15$'));
  t.true(await hasher.verify('another password', hash));
});

test('passwords beyond 72 bytes are not truncated (unlike bcrypt)', async (t) => {
  const base = 'x'.repeat(72);
  const hash = await hasher.hash(`${base}a`);
  t.false(await hasher.verify(`${base}b`, hash));
});

test('malformed or foreign hashes never verify and never throw', async (t) => {
  for (const bad of [
    '',
    'plain',
    '$2b$12$abcdefghijklmnopqrstuv',
    'scrypt$99$8$1$AAAA$AAAA',
    'scrypt$14$8$1$$',
  ]) {
    t.false(await hasher.verify('whatever1', bad), bad);
  }
});

test('verifyAgainstNothing answers false after doing the same work', async (t) => {
  t.false(await hasher.verifyAgainstNothing('anything-at-all'));
});
