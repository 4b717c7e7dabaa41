/** One delivery attempt against a real receiver on 127.0.0.1, and what each answer means. */
import test from 'ava';
import {
  safeError,
  send,
  UNREACHABLE_ERROR,
} from '../../../../plugins/notifications/delivery/sender.js';
import { OutboundClient, outboundSettingsOf } from '../../../../sdk/index.js';
import { startReceiver } from './receiver.js';

const outbound = new OutboundClient();
test.after.always(() => outbound.close());

const request = (url: string) => ({
  url,
  headers: { 'content-type': 'application/json' },
  body: '{"title":"hello"}',
});

async function attempt(url: string, headers: Record<string, string> = {}) {
  const causes: string[] = [];
  const outcome = await send(request(url), headers, true, outbound, (cause) => causes.push(cause));
  return { outcome, causes };
}

test('a 2xx is delivered: the body and the destination headers reach the receiver', async (t) => {
  const receiver = await startReceiver({ status: 204 });
  t.teardown(() => receiver.close());
  const { outcome, causes } = await attempt(receiver.url, { authorization: 'Bearer abc' });
  t.deepEqual(outcome, { kind: 'ok' });
  t.deepEqual(causes, []);
  t.is(receiver.received[0]?.body, '{"title":"hello"}');
  t.is(receiver.received[0]?.headers.authorization, 'Bearer abc');
  t.is(receiver.received[0]?.headers['content-type'], 'application/json');
});

test('5xx, 408 and 429 are retried (Retry-After in seconds or as a date); the cause is logged', async (t) => {
  const receiver = await startReceiver(
    { status: 503, body: 'down for http://user:pw@example.test/x' },
    { status: 429, headers: { 'retry-after': '7' } },
    { status: 408, headers: { 'retry-after': new Date(Date.now() + 60_000).toUTCString() } },
  );
  t.teardown(() => receiver.close());
  const first = await attempt(receiver.url);
  t.deepEqual(first.outcome, { kind: 'retry', error: UNREACHABLE_ERROR, retryAfterSec: null });
  t.regex(first.causes[0] ?? '', /^HTTP 503: down for http:\/\/\[redacted\]/);
  t.deepEqual((await attempt(receiver.url)).outcome, {
    kind: 'retry',
    error: UNREACHABLE_ERROR,
    retryAfterSec: 7,
  });
  const dated = (await attempt(receiver.url)).outcome;
  t.is(dated.kind, 'retry');
  const wait = dated.kind === 'retry' ? (dated.retryAfterSec ?? 0) : 0;
  t.true(wait > 50 && wait <= 60, String(wait));
});

test('any other status gives up: the request itself is wrong', async (t) => {
  const receiver = await startReceiver({ status: 400, body: 'bad payload' });
  t.teardown(() => receiver.close());
  const { outcome, causes } = await attempt(receiver.url);
  t.deepEqual(outcome, { kind: 'fatal', error: UNREACHABLE_ERROR });
  t.deepEqual(causes, ['HTTP 400: bad payload']);
});

test('a closed port is retried and reads like any other failure', async (t) => {
  const receiver = await startReceiver({ status: 200 });
  const url = receiver.url;
  await receiver.close();
  const { outcome, causes } = await attempt(url);
  t.deepEqual(outcome, { kind: 'retry', error: UNREACHABLE_ERROR, retryAfterSec: null });
  t.is(causes.length, 1);
});

test('an address the outbound policy refuses is given up at once, never contacted', async (t) => {
  const receiver = await startReceiver({ status: 200 });
  t.teardown(() => receiver.close());
  const noLoopback = outboundSettingsOf({ stackd: { outbound: { allow_loopback: false } } });
  const guarded = new OutboundClient(() => noLoopback);
  t.teardown(() => guarded.close());
  const outcome = await send(request(receiver.url), {}, true, guarded, () => undefined);
  t.deepEqual(outcome, { kind: 'fatal', error: UNREACHABLE_ERROR });
  t.is(receiver.received.length, 0);
});

test('an aborted send (the plugin stopping) is a retry, not a failure', async (t) => {
  const receiver = await startReceiver({ status: 200, delayMs: 5_000 });
  t.teardown(() => receiver.close());
  const stop = new AbortController();
  const pending = send(request(receiver.url), {}, true, outbound, () => undefined, stop.signal);
  setTimeout(() => stop.abort(), 100);
  t.like(await pending, { kind: 'retry', error: UNREACHABLE_ERROR });
});

test('stored errors carry no URL', (t) => {
  t.is(
    safeError('connect ECONNREFUSED https://user:pw@hook.example/secret'),
    'connect ECONNREFUSED https://[redacted]',
  );
});
