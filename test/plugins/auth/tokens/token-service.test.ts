import test from 'ava';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { TokenService } from '../../../../plugins/auth/tokens/token-service.js';
import { ManualClock, SECRET } from '../auth-harness.js';

const subject = { username: 'alice', uid: 'uid-1' };

function service(clock = new ManualClock(), accessTtlSec = 3600, refreshTtlSec = 30 * 86_400) {
  return {
    clock,
    tokens: new TokenService(SECRET, { accessTtlSec, refreshTtlSec, now: clock.now }),
  };
}

test('a pair carries sub, exp, iat, jti and type, signed HS256', async (t) => {
  const { clock, tokens } = service();
  const { pair } = await tokens.issuePair(subject);
  t.is(pair.token_type, 'bearer');
  const issuedAt = Math.floor(clock.ms / 1000);
  const access = decodeJwt(pair.access_token);
  const refresh = decodeJwt(pair.refresh_token);
  t.is(decodeProtectedHeader(pair.access_token).alg, 'HS256');
  t.like(access, {
    sub: 'alice',
    type: 'access',
    uid: 'uid-1',
    iat: issuedAt,
    exp: issuedAt + 3600,
  });
  t.like(refresh, { sub: 'alice', type: 'refresh', iat: issuedAt, exp: issuedAt + 30 * 86_400 });
  t.regex(String(access.jti), /^[0-9a-f-]{36}$/);
  t.not(access.jti, refresh.jti);
});

test('each token type is accepted only as itself', async (t) => {
  const { tokens } = service();
  const { pair } = await tokens.issuePair(subject);
  t.like(await tokens.verify(pair.access_token, 'access'), { ok: true, claims: { sub: 'alice' } });
  t.like(await tokens.verify(pair.refresh_token, 'refresh'), { ok: true });
  t.like(await tokens.verify(pair.refresh_token, 'access'), { ok: false });
  t.like(await tokens.verify(pair.access_token, 'refresh'), { ok: false });
});

test('a token expires at exp, with no leeway', async (t) => {
  const { clock, tokens } = service(new ManualClock(), 1);
  const { pair } = await tokens.issuePair(subject);
  clock.advance(999);
  t.true((await tokens.verify(pair.access_token, 'access')).ok);
  clock.advance(1);
  t.like(await tokens.verify(pair.access_token, 'access'), { ok: false });
  t.true((await tokens.verify(pair.refresh_token, 'refresh')).ok);
});

test('tokens signed with another secret, tampered or garbage are refused', async (t) => {
  const { clock, tokens } = service();
  const other = new TokenService(new Uint8Array(32).fill(9), {
    accessTtlSec: 60,
    refreshTtlSec: 60,
    now: clock.now,
  });
  const { pair: foreign } = await other.issuePair(subject);
  t.like(await tokens.verify(foreign.access_token, 'access'), { ok: false });
  const { pair } = await tokens.issuePair(subject);
  const [header, , signature] = pair.access_token.split('.');
  const forgedPayload = Buffer.from(
    JSON.stringify({ ...decodeJwt(pair.access_token), sub: 'root' }),
  ).toString('base64url');
  t.like(await tokens.verify(`${header}.${forgedPayload}.${signature}`, 'access'), { ok: false });
  for (const junk of ['', 'abc', 'a.b.c'])
    t.like(await tokens.verify(junk, 'access'), { ok: false });
});

test('alg none and tokens missing required claims are refused', async (t) => {
  const { clock, tokens } = service();
  const iat = Math.floor(clock.ms / 1000);
  const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
    JSON.stringify({ sub: 'alice', uid: 'uid-1', type: 'access', iat, exp: iat + 60, jti: 'x' }),
  ).toString('base64url')}.`;
  t.like(await tokens.verify(unsigned, 'access'), { ok: false });
  const noJti = await new SignJWT({ type: 'access', uid: 'uid-1' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('alice')
    .setIssuedAt(iat)
    .setExpirationTime(iat + 60)
    .sign(SECRET);
  t.like(await tokens.verify(noJti, 'access'), { ok: false });
  const noExp = await new SignJWT({ type: 'access', uid: 'uid-1' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('alice')
    .setIssuedAt(iat)
    .setJti('j')
    .sign(SECRET);
  t.like(await tokens.verify(noExp, 'access'), { ok: false });
});
