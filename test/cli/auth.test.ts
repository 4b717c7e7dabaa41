/** `stackd login`/`logout` and the token refresh against a host with authentication on. */
import test from 'ava';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { request } from '../helpers/http.js';
import { startHost, type RunningHostProcess } from '../helpers/start-host.js';
import { clientEnv, runClient } from './run-client.js';

let host: RunningHostProcess;

test.before(async () => {
  host = await startHost({
    config: { stackd: { auth: { access_token_ttl_sec: 2, scrypt_cost_log2: 14 } } },
  });
  const setup = await request(host.url, '/api/auth/setup', {
    body: { username: 'admin', password: 'admin-password' },
  });
  if (setup.status !== 200) throw new Error(`setup: ${setup.status} ${setup.text}`);
});

test.after.always(async () => {
  await host?.stop();
});

test('without a login the client exits 4 naming `stackd login`', async (t) => {
  const result = await runClient(['status'], { env: clientEnv(host.url) });
  t.is(result.code, 4);
  t.regex(result.stderr, /not authorised at 127\.0\.0\.1:\d+: run `stackd login/);
  const bad = await runClient(['status'], { env: clientEnv(host.url, { STACKD_TOKEN: 'nope' }) });
  t.is(bad.code, 4);
  t.regex(bad.stderr, /--token\/STACKD_TOKEN was refused/);
});

test('login stores the pair 0600, refreshes it when the access token runs out, logout forgets it', async (t) => {
  const env = clientEnv(host.url);
  const wrong = await runClient(['login', '-u', 'admin', '--password-stdin'], {
    env,
    input: 'wrong-password\n',
  });
  t.is(wrong.code, 4);
  const login = await runClient(['login', '--username', 'admin', '--password-stdin'], {
    env,
    input: 'admin-password\n',
  });
  t.is(login.code, 0, login.stderr);
  const file = join(env.XDG_CONFIG_HOME as string, 'stackd', 'credentials.json');
  t.is(statSync(file).mode & 0o777, 0o600);
  const before = JSON.parse(readFileSync(file, 'utf8'))[host.url];
  t.is((await runClient(['status'], { env })).code, 0);
  // The access token lives 2 s: the next command gets a 401, refreshes and goes on.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const later = await runClient(['status', '--json'], { env });
  t.is(later.code, 0, later.stderr);
  const after = JSON.parse(readFileSync(file, 'utf8'))[host.url];
  t.not(after.access_token, before.access_token);
  t.not(after.refresh_token, before.refresh_token);
  const users = await runClient(['users', 'list'], { env });
  t.regex(users.stdout, /admin\s+active/);
  t.is((await runClient(['logout'], { env })).code, 0);
  t.is((await runClient(['status'], { env })).code, 4);
});
