import test from 'ava';
import {
  addressRefusal,
  outboundSettingsOf,
  OutboundSettingsError,
  selfAddressOf,
  staticRefusal,
} from '../../../sdk/index.js';

const defaults = outboundSettingsOf({});
const self = selfAddressOf('http://127.0.0.1:8000');

test('every notation of the metadata address is refused', (t) => {
  for (const host of [
    '169.254.169.254',
    '0251.0376.0251.0376', // octal
    '2852039166', // one decimal number
    '0xa9fea9fe', // hex
    '0xa9.0xfe.0xa9.0xfe',
    '169.254.43518', // two-part
    '[::ffff:a9fe:a9fe]', // IPv4-mapped
    '[::ffff:169.254.169.254]',
    '[::169.254.169.254]', // IPv4-compatible
    '[::ffff:0:a9fe:a9fe]', // SIIT
    '[64:ff9b::a9fe:a9fe]', // NAT64
    '[2002:a9fe:a9fe::1]', // 6to4
    '[fd00:ec2::254]', // AWS over IPv6
    '100.100.100.200', // Alibaba
  ])
    t.is(addressRefusal(host, 80, defaults, self), 'metadata', host);
});

test('link-local, unspecified, multicast and reserved addresses are refused', (t) => {
  t.is(addressRefusal('169.254.1.1', 80, defaults, null), 'link-local');
  t.is(addressRefusal('[fe80::1]', 80, defaults, null), 'link-local');
  t.is(addressRefusal('[fe80::1%25eth0]', 80, defaults, null), 'link-local');
  t.is(addressRefusal('[febf::1]', 80, defaults, null), 'link-local');
  t.is(addressRefusal('[::ffff:169.254.1.1]', 80, defaults, null), 'link-local');
  t.is(addressRefusal('0.0.0.0', 80, defaults, null), 'unspecified');
  t.is(addressRefusal('0', 80, defaults, null), 'unspecified');
  t.is(addressRefusal('[::]', 80, defaults, null), 'unspecified');
  t.is(addressRefusal('[::ffff:0.0.0.0]', 80, defaults, null), 'unspecified');
  t.is(addressRefusal('224.0.0.1', 80, defaults, null), 'multicast');
  t.is(addressRefusal('[ff02::1]', 80, defaults, null), 'multicast');
  t.is(addressRefusal('255.255.255.255', 80, defaults, null), 'reserved');
});

test("stackd's own port is refused on every loopback alias, other ports stay allowed", (t) => {
  for (const host of [
    '127.0.0.1',
    '127.1',
    '2130706433',
    '0x7f000001',
    '0177.0.0.1',
    '127.255.255.254',
    '[::1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[0:0:0:0:0:0:0:1]',
  ]) {
    t.is(addressRefusal(host, 8000, defaults, self), 'stackd-itself', host);
    t.is(addressRefusal(host, 8001, defaults, self), null, host);
  }
});

test('stackd listening everywhere: its port on a local interface address is itself', (t) => {
  const everywhere = selfAddressOf('http://0.0.0.0:8000');
  t.deepEqual(everywhere, { port: 8000, address: null });
  t.is(addressRefusal('127.0.0.1', 8000, defaults, everywhere), 'stackd-itself');
  const specific = selfAddressOf('http://10.1.2.3:8000');
  t.is(addressRefusal('10.1.2.3', 8000, defaults, specific), 'stackd-itself');
  t.is(addressRefusal('10.1.2.4', 8000, defaults, specific), null);
});

test('the LAN, loopback and public addresses are allowed by default', (t) => {
  for (const host of [
    '10.0.0.5',
    '172.16.4.4',
    '192.168.1.10',
    '[fd12::5]',
    '127.0.0.1',
    '8.8.8.8',
  ])
    t.is(addressRefusal(host, 11434, defaults, self), null, host);
});

test('stackd.outbound narrows: private and loopback off, allow and deny lists', (t) => {
  const narrow = outboundSettingsOf({
    stackd: {
      outbound: {
        allow_private: false,
        allow_loopback: false,
        allow: ['192.168.1.0/24', '127.0.0.1'],
        deny: ['203.0.113.0/24', '2001:db8::/32'],
      },
    },
  });
  t.is(addressRefusal('10.0.0.5', 80, narrow, self), 'private');
  t.is(addressRefusal('[::ffff:10.0.0.5]', 80, narrow, self), 'private');
  t.is(addressRefusal('[fd12::5]', 80, narrow, self), 'private');
  t.is(addressRefusal('192.168.1.20', 80, narrow, self), null);
  t.is(addressRefusal('192.168.2.20', 80, narrow, self), 'private');
  t.is(addressRefusal('127.0.0.2', 80, narrow, self), 'loopback');
  t.is(addressRefusal('[::1]', 80, narrow, self), 'loopback');
  t.is(addressRefusal('127.0.0.1', 80, narrow, self), null);
  // The allow list never reopens stackd's own port.
  t.is(addressRefusal('127.0.0.1', 8000, narrow, self), 'stackd-itself');
  t.is(addressRefusal('203.0.113.9', 443, narrow, self), 'denied');
  t.is(addressRefusal('[2001:db8::1]', 443, narrow, self), 'denied');
  t.is(addressRefusal('8.8.8.8', 443, narrow, self), null);
});

test('the allow list never reopens link-local or metadata addresses', (t) => {
  const wide = outboundSettingsOf({
    stackd: { outbound: { allow: ['169.254.0.0/16', 'fe80::/10'] } },
  });
  t.is(addressRefusal('169.254.169.254', 80, wide, null), 'metadata');
  t.is(addressRefusal('169.254.10.10', 80, wide, null), 'link-local');
  t.is(addressRefusal('[fe80::1]', 80, wide, null), 'link-local');
});

test('bad stackd.outbound settings name the field', (t) => {
  const cases: Array<[unknown, string]> = [
    [{ allow_private: 'no' }, 'stackd.outbound.allow_private'],
    [{ deny: ['10.0.0.0/33'] }, 'stackd.outbound.deny'],
    [{ allow: ['not-an-address'] }, 'stackd.outbound.allow'],
    [{ deny: ['10.0.0.0/'] }, 'stackd.outbound.deny'],
    ['off', 'stackd.outbound'],
  ];
  for (const [outbound, field] of cases) {
    const error = t.throws(() => outboundSettingsOf({ stackd: { outbound } }), {
      instanceOf: OutboundSettingsError,
    });
    t.is(error?.field, field, JSON.stringify(outbound));
  }
});

test('static refusal judges IP literals and localhost names, leaves other names to DNS time', (t) => {
  t.is(
    staticRefusal(new URL('http://169.254.169.254/latest/meta-data/'), defaults, self),
    'metadata',
  );
  t.is(staticRefusal(new URL('http://[::ffff:a9fe:a9fe]/'), defaults, self), 'metadata');
  t.is(staticRefusal(new URL('http://0251.0376.0251.0376/'), defaults, self), 'metadata');
  t.is(
    staticRefusal(new URL('http://127.0.0.1:8000/api/auth/disable'), defaults, self),
    'stackd-itself',
  );
  t.is(staticRefusal(new URL('http://localhost:8000/'), defaults, self), 'stackd-itself');
  t.is(staticRefusal(new URL('http://app.localhost:8000/'), defaults, self), 'stackd-itself');
  t.is(staticRefusal(new URL('http://localhost:11434/'), defaults, self), null);
  t.is(staticRefusal(new URL('https://api.example.com/'), defaults, self), null);
});
