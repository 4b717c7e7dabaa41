/** The `stackd.auth` config slice: defaults give the contract's lifetimes; a bad value stops the boot. */
import test from 'ava';
import { decodeJwt } from 'jose';
import { client, startAuthHost } from './auth-host.js';

test('an invalid slice value stops the boot with an error naming the field', async (t) => {
  const error = await t.throwsAsync(startAuthHost({ access_token_ttl_sec: 0 }));
  t.regex(error?.message ?? '', /stackd\.auth\.access_token_ttl_sec/);
});

test('configured lifetimes are used for both tokens', async (t) => {
  const host = await startAuthHost({ access_token_ttl_sec: 120, refresh_token_ttl_sec: 7200 });
  try {
    const setup = await client(host).post('/api/auth/setup', {
      username: 'admin',
      password: 'admin-password',
    });
    const access = decodeJwt(setup.body.access_token);
    const refresh = decodeJwt(setup.body.refresh_token);
    t.is(Number(access.exp) - Number(access.iat), 120);
    t.is(Number(refresh.exp) - Number(refresh.iat), 7200);
  } finally {
    await host.stop();
  }
});
