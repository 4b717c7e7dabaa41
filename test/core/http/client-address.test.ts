import test from 'ava';
import {
  ClientAddresses,
  TrustedProxyError,
  normalizeAddress,
} from '../../../core/http/client-address.js';

test('the peer is the client unless it is a trusted proxy', (t) => {
  const none = new ClientAddresses([]);
  t.is(
    none.resolve('10.0.0.5', '1.2.3.4'),
    '10.0.0.5',
    'no trusted proxies: the header is ignored',
  );
  const proxies = new ClientAddresses(['10.0.0.0/8', '::1']);
  t.is(proxies.resolve('192.168.1.9', '1.2.3.4'), '192.168.1.9', 'an untrusted peer');
  t.is(proxies.resolve('10.0.0.5', '1.2.3.4'), '1.2.3.4');
  t.is(proxies.resolve('::1', '1.2.3.4'), '1.2.3.4');
});

test('the right-most untrusted hop wins; garbage falls back to the peer', (t) => {
  const proxies = new ClientAddresses(['10.0.0.0/8']);
  t.is(proxies.resolve('10.0.0.5', '6.6.6.6, 1.2.3.4, 10.1.1.1'), '1.2.3.4');
  t.is(proxies.resolve('10.0.0.5', '10.2.2.2, 10.1.1.1'), '10.2.2.2', 'all trusted: the first');
  t.is(proxies.resolve('10.0.0.5', 'not-an-ip'), '10.0.0.5');
  t.is(proxies.resolve('10.0.0.5', undefined), '10.0.0.5');
});

test('IPv4-mapped IPv6 peers read as IPv4; bad entries are refused by index', (t) => {
  t.is(normalizeAddress('0000:0000:0000:0000:0000:ffff:7f00:0001'), '127.0.0.1');
  t.is(normalizeAddress('::ffff:127.0.0.1'), '127.0.0.1');
  t.true(new ClientAddresses(['127.0.0.1']).isTrusted(normalizeAddress('::ffff:127.0.0.1')));
  const error = t.throws(() => new ClientAddresses(['10.0.0.1', '10.0.0.0/40']));
  t.true(error instanceof TrustedProxyError);
  t.regex(error.message, /trusted_proxies\[1\]/);
});
