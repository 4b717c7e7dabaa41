import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { ConfigStore } from '../../../core/config/config-store.js';
import { readConfigDocument, resolveConfigSource } from '../../../core/config/config-source.js';
import { InputError } from '../../../sdk/errors.js';

function fileStore(content: Record<string, unknown>): { store: ConfigStore; path: string } {
  const path = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'stackd.json');
  const text = `${JSON.stringify(content, null, 4)}\n`;
  writeFileSync(path, text);
  return {
    store: new ConfigStore({ readPath: path, writePath: path, origin: 'file' }, content),
    path,
  };
}

test('a rejected update changes nothing in memory or on disk', async (t) => {
  const { store, path } = fileStore({
    web: { process_name: 'Web', port: 1, custom: { keep: true } },
  });
  const before = readFileSync(path);
  store.addValidator((candidate) => {
    if (typeof (candidate.web as { port?: unknown }).port !== 'number')
      throw new InputError('CONFIG_INVALID', 'port must be a number', { field: 'web.port' });
  });
  await t.throwsAsync(
    store.update((draft) => void ((draft.web as Record<string, unknown>).port = 'x'), {
      persist: true,
    }),
    { message: /port/ },
  );
  t.deepEqual(readFileSync(path), before, 'byte-identical');
  t.is((store.read().web as { port: number }).port, 1);
});

test('unknown fields survive updates and saves', async (t) => {
  const { store, path } = fileStore({
    web: { process_name: 'Web', custom: { keep: true } },
    extra: 'x',
  });
  await store.update((draft) => void ((draft.web as Record<string, unknown>).port = 2), {
    persist: true,
  });
  const saved = JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
  t.deepEqual(saved, { web: { process_name: 'Web', custom: { keep: true }, port: 2 }, extra: 'x' });
});

test('a subtree persist writes only that subtree over the file as it is on disk', async (t) => {
  const { store, path } = fileStore({ a: { v: 1 }, b: { v: 1 } });
  await store.update((draft) => {
    (draft.a as Record<string, unknown>).v = 2;
    (draft.b as Record<string, unknown>).v = 2;
  });
  await store.update(() => undefined, { persist: ['b'] });
  t.deepEqual(JSON.parse(readFileSync(path, 'utf8')), { a: { v: 1 }, b: { v: 2 } });
  t.deepEqual(store.read(), { a: { v: 2 }, b: { v: 2 } });
});

test('listeners see previous and current documents', async (t) => {
  const { store } = fileStore({ a: 1 });
  const seen: unknown[] = [];
  store.onChange((change) => seen.push([change.previous.a, change.current.a, change.reason]));
  await store.update((draft) => void (draft.a = 2), { reason: 'test' });
  t.deepEqual(seen, [[1, 2, 'test']]);
});

test('discovery: explicit path, cosmiconfig search, saved demo, bundled demo', async (t) => {
  const cwd = mkdtempSync(join(tmpdir(), 'cwd-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'data-'));
  const demoPath = join(cwd, 'demo.json');
  writeFileSync(demoPath, '{"demo": {"command": ["node", "{stackd_demo_dir}/x.js"]}}');
  let source = await resolveConfigSource({
    explicitPath: undefined,
    searchFrom: cwd,
    dataDir,
    demoPath,
  });
  t.is(source.origin, 'demo');
  t.is(source.writePath, join(dataDir, 'stackd.json'), 'the demo is saved into the data dir');
  t.deepEqual(await readConfigDocument(source, '/opt/demo'), {
    demo: { command: ['node', '/opt/demo/x.js'] },
  });
  writeFileSync(join(cwd, '.stackdrc'), '{"found": true}');
  source = await resolveConfigSource({
    explicitPath: undefined,
    searchFrom: cwd,
    dataDir,
    demoPath,
  });
  t.is(source.readPath, join(cwd, '.stackdrc'));
  t.deepEqual(await readConfigDocument(source, ''), { found: true });
  await t.throwsAsync(
    resolveConfigSource({
      explicitPath: join(cwd, 'nope.json'),
      searchFrom: cwd,
      dataDir,
      demoPath,
    }),
    { message: /config file not found/ },
  );
});

test('a JSON syntax error names the file, line and column, and shows the line with a caret', async (t) => {
  const path = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'bad.json');
  writeFileSync(path, '{\n  "a": 1,\n  "b": \n}');
  const error = await t.throwsAsync(
    readConfigDocument({ readPath: path, writePath: path, origin: 'file' }, ''),
  );
  t.is(error?.message, `JSON syntax error in ${path}:4:1: a value expected\n  }\n  ^`);
});

test('every kind of syntax error gets line, column and a caret', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
  const cases: Array<[string, string, string]> = [
    ["{\n  'a': 1\n}", 'single quotes', ":2:3: unexpected character\n    'a': 1\n    ^"],
    ['{\n  "a": 1\n  "b": 2\n}', 'missing comma', ':3:3: \',\' expected\n    "b": 2\n    ^'],
    ['{\n  "a": [1, 2\n}', 'unclosed array', ":3:1: ',' expected\n  }\n  ^"],
  ];
  for (const [text, name, expected] of cases) {
    const path = join(dir, `${name.replaceAll(' ', '-')}.json`);
    writeFileSync(path, text);
    const error = await t.throwsAsync(
      readConfigDocument({ readPath: path, writePath: path, origin: 'file' }, ''),
    );
    t.is(error?.message, `JSON syntax error in ${path}${expected}`, name);
  }
});

test('JSONC: comments and trailing commas are accepted', async (t) => {
  const path = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'ok.json');
  writeFileSync(
    path,
    '{\n  // the web\n  "web": {"process_name": "Web", /* x */ "port": 80,},\n}\n',
  );
  const document = await readConfigDocument(
    { readPath: path, writePath: path, origin: 'file' },
    '',
  );
  t.deepEqual(document, { web: { process_name: 'Web', port: 80 } });
});
