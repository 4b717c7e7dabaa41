import test from 'ava';
import {
  describeUrl,
  describeWait,
  parseWaits,
} from '../../../../plugins/supervisor/waits/wait-specs.js';

test('waits come in the reference order: dirs, mounts, tcp, urls', (t) => {
  const waits = parseWaits(
    {
      wait_for_url: 'http://127.0.0.1:9/health',
      wait_for_tcp: { port: 5432 },
      wait_for_mounts: ['/mnt/a'],
      wait_for_dir: 'media',
    },
    '/data',
  );
  t.deepEqual(
    waits.map((wait) => wait.kind),
    ['dir', 'mount', 'tcp', 'url'],
  );
  t.deepEqual(waits[0], { kind: 'dir', path: '/data/media' });
  t.deepEqual(waits[2], { kind: 'tcp', host: '127.0.0.1', port: 5432, timeoutMs: 2000 });
});

test('wait_for_url takes a string, an object or a list; duplicates are dropped', (t) => {
  const waits = parseWaits(
    {
      wait_for_url: [
        'http://a.test/ping',
        { url: 'http://b.test/x', timeout: 3, expected_json_path: 'status.ok' },
        'http://a.test/ping',
        { url: 'http://b.test/dav/', auth: { user: 'u', password: 'p' } },
        { url: 'http://b.test/y', timeout: -1, probe_method: 'head', probe_headers: { X: 1 } },
      ],
    },
    '/data',
  );
  t.is(waits.length, 4);
  t.deepEqual(waits[0], {
    kind: 'url',
    url: 'http://a.test/ping',
    method: 'GET',
    headers: {},
    timeoutMs: 10_000,
    expectedJsonPath: null,
  });
  t.like(waits[1], { timeoutMs: 3000, expectedJsonPath: 'status.ok' });
  t.like(waits[2], {
    method: 'PROPFIND',
    headers: { Depth: '0', Authorization: `Basic ${Buffer.from('u:p').toString('base64')}` },
  });
  t.like(waits[3], { method: 'HEAD', timeoutMs: 10_000, headers: { X: '1' } });
});

test('wait_for_tcp accepts host:port strings and wildcard hosts probe loopback', (t) => {
  const waits = parseWaits(
    { wait_for_tcp: ['db.local:5432', { host: '0.0.0.0', port: 80, timeout: 0.5 }] },
    '/d',
  );
  t.deepEqual(waits, [
    { kind: 'tcp', host: 'db.local', port: 5432, timeoutMs: 2000 },
    { kind: 'tcp', host: '127.0.0.1', port: 80, timeoutMs: 500 },
  ]);
});

test('invalid waits name the field', (t) => {
  t.throws(() => parseWaits({ wait_for_tcp: { port: 70000 } }, '/d'), {
    message: 'wait_for_tcp[0].port must be an integer from 1 to 65535',
  });
  t.throws(() => parseWaits({ wait_for_url: [{ timeout: 1 }] }, '/d'), {
    message: 'wait_for_url[0].url must be a URL string',
  });
  t.throws(() => parseWaits({ wait_for_url: 'ftp://x/' }, '/d'), {
    message: 'wait_for_url[0].url must be http or https',
  });
  t.throws(() => parseWaits({ wait_for_mounts: [''] }, '/d'), {
    message: 'wait_for_mounts[0] must be a non-empty path',
  });
});

test('descriptions never show URL credentials or query strings', (t) => {
  t.is(describeUrl('http://user:secret@host:8080/ping?apikey=abc'), 'http://host:8080/ping');
  const [url] = parseWaits({ wait_for_url: 'http://user:pw@h/p?token=1' }, '/d');
  t.is(url === undefined ? '' : describeWait(url), 'http://h/p');
  t.deepEqual(parseWaits({ wait_for_dir: '' }, '/d'), []);
});
