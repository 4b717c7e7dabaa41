import test from 'ava';
import { checkOutboundUrl, InputError } from '../../sdk/index.js';

test('checkOutboundUrl accepts http and https with a host, loopback included', (t) => {
  t.is(checkOutboundUrl(' http://127.0.0.1:5055/api ', 'url').host, '127.0.0.1:5055');
  t.is(checkOutboundUrl('https://seerr.example', 'url').protocol, 'https:');
});

test('checkOutboundUrl names the field for every refused form', (t) => {
  for (const [value, code] of [
    ['not a url', 'URL_INVALID'],
    ['ftp://host/x', 'URL_SCHEME'],
    ['file:///etc/passwd', 'URL_SCHEME'],
    ['http://user:pw@host/', 'URL_CREDENTIALS'],
    ['https://token@host/', 'URL_CREDENTIALS'],
  ] as const) {
    const error = t.throws(() => checkOutboundUrl(value, 'primary.url'), {
      instanceOf: InputError,
    });
    t.is(error?.code, code, value);
    t.is(error?.field, 'primary.url');
    t.false(error?.message.includes('pw@'), 'credentials are not echoed');
  }
});
