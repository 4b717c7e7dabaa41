/**
 * A planted password never comes back out in clear (responses, host output at DEBUG, any file of
 * the data dir, any database column); the secret file is 0600; users, auth state and the secret
 * survive a restart.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import sqlite from 'node-sqlite3-wasm';
import { request } from '../../helpers/http.js';
import { startHost } from '../../helpers/start-host.js';
import {
  client,
  expectStatus,
  HELLO_PLUGIN,
  PLANTED_PASSWORD,
  startAuthHost,
} from './auth-host.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** The planted password as it could appear in bytes: UTF-8, UTF-16, base64, hex. */
const plantedForms = [
  Buffer.from(PLANTED_PASSWORD, 'utf8'),
  Buffer.from(PLANTED_PASSWORD, 'utf16le'),
  Buffer.from(Buffer.from(PLANTED_PASSWORD).toString('base64')),
  Buffer.from(Buffer.from(PLANTED_PASSWORD).toString('base64url')),
  Buffer.from(Buffer.from(PLANTED_PASSWORD).toString('hex')),
];

test('a planted password appears in no response, log line, file or database column', async (t) => {
  const host = await startAuthHost({ scrypt_cost_log2: 15 }, { logLevel: 'DEBUG' });
  const api = client(host);
  const texts: string[] = [];
  const keep = <T extends { text: string }>(response: T): T => {
    texts.push(response.text);
    return response;
  };
  try {
    const setup = keep(
      await api.post('/api/auth/setup', { username: 'admin', password: PLANTED_PASSWORD }),
    );
    expectStatus(t, setup, 200);
    const admin = setup.body.access_token as string;
    keep(
      await api.post('/api/auth/users', { username: 'second', password: PLANTED_PASSWORD }, admin),
    );
    keep(
      await api.post('/api/auth/users', { username: 'second', password: PLANTED_PASSWORD }, admin),
    );
    keep(await api.post('/api/auth/login', { username: 'admin', password: PLANTED_PASSWORD }));
    keep(
      await api.post('/api/auth/login', { username: 'admin', password: `${PLANTED_PASSWORD}x` }),
    );
    keep(await api.post('/api/auth/login', { username: 'ghost', password: PLANTED_PASSWORD }));
    // Format violations echo nothing of the value either.
    keep(await api.post('/api/auth/users', { username: 'x', password: PLANTED_PASSWORD }, admin));
    keep(
      await api.post(
        '/api/auth/users',
        { username: 'longpw', password: PLANTED_PASSWORD.repeat(4) },
        admin,
      ),
    );
    keep(await api.post('/api/auth/setup', { username: 'again', password: PLANTED_PASSWORD }));
    keep(
      await request(host.url, '/api/auth/login', {
        method: 'POST',
        rawBody: `{"password":"${PLANTED_PASSWORD}"`,
      }),
    );
    keep(await api.put('/api/auth/users/second', { disabled: true }, admin));
    keep(await api.post('/api/auth/login', { username: 'second', password: PLANTED_PASSWORD }));
    keep(await api.get('/api/auth/users', admin));
    keep(await api.get('/api/auth/status'));
    keep(await api.get('/openapi.json'));
    t.is(texts.length, 15);
    for (const text of texts) t.false(text.includes(PLANTED_PASSWORD), text.slice(0, 200));
  } finally {
    await host.stop();
  }
  const output = host.output();
  t.true(output.includes('login succeeded'), 'the DEBUG host log does record auth events');
  t.false(output.includes(PLANTED_PASSWORD));

  const files = filesUnder(host.dataDir);
  t.true(files.some((file) => file.endsWith('auth.sqlite')));
  for (const file of files) {
    const bytes = readFileSync(file);
    for (const form of plantedForms) t.false(bytes.includes(form), `${file} holds the password`);
  }
  const db = new sqlite.Database(join(host.dataDir, 'auth', 'auth.sqlite'), { readOnly: true });
  try {
    const rows = db.all('SELECT * FROM users') as Array<Record<string, unknown>>;
    t.is(rows.length, 2);
    for (const row of rows) {
      t.regex(String(row.password_hash), /^scrypt\$15\$8\$1\$/);
      for (const value of Object.values(row)) t.false(String(value).includes(PLANTED_PASSWORD));
    }
  } finally {
    db.close();
  }
});

test('the JWT secret is 256 bits in a 0600 file; state, users and tokens survive a restart', async (t) => {
  const first = await startAuthHost();
  const api = client(first);
  const setup = await api.post('/api/auth/setup', {
    username: 'admin',
    password: 'admin-password',
  });
  const admin = setup.body.access_token as string;
  expectStatus(
    t,
    await api.post('/api/auth/users', { username: 'bob', password: 'bob-password' }, admin),
    200,
  );
  expectStatus(t, await api.put('/api/auth/users/bob', { disabled: true }, admin), 200);
  await first.stop();

  const secretFile = join(first.dataDir, 'auth', 'jwt-secret');
  t.is(statSync(secretFile).mode & 0o777, 0o600);
  const secretText = readFileSync(secretFile, 'utf8').trim();
  t.is(Buffer.from(secretText, 'base64url').length, 32);

  const second = await startAuthHost({}, { dataDir: first.dataDir });
  try {
    const again = client(second);
    t.deepEqual((await again.get('/api/auth/status')).body, {
      enabled: true,
      has_users: true,
      setup_skipped: false,
    });
    // The same secret: the token from before the restart still works.
    const echo = await again.echo(admin);
    expectStatus(t, echo, 200);
    t.is(echo.body.principal, 'admin');
    t.deepEqual((await again.get('/api/auth/users', admin)).body, {
      users: [
        { username: 'admin', disabled: false },
        { username: 'bob', disabled: true },
      ],
    });
    expectStatus(
      t,
      await again.post('/api/auth/login', { username: 'bob', password: 'bob-password' }),
      403,
    );
    expectStatus(t, await again.post('/api/auth/skip-setup'), 401);
    expectStatus(t, await again.post('/api/auth/skip-setup', undefined, admin), 200);
  } finally {
    await second.stop();
  }
  t.is(readFileSync(secretFile, 'utf8').trim(), secretText);

  // Disabled + skipped survives as well.
  const third = await startAuthHost({}, { dataDir: first.dataDir });
  try {
    t.deepEqual((await client(third).get('/api/auth/status')).body, {
      enabled: false,
      has_users: true,
      setup_skipped: true,
    });
    expectStatus(t, await client(third).echo(), 200);
  } finally {
    await third.stop();
  }
});

test('without the auth plugin everything is open', async (t) => {
  const host = await startHost({ plugins: [HELLO_PLUGIN] });
  try {
    const echo = await client(host).echo();
    expectStatus(t, echo, 200);
    t.is(echo.body.principal, null);
  } finally {
    await host.stop();
  }
});
