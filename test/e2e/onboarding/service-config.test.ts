import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { request } from '../../helpers/http.js';
import { fixtureBlock, program, startWithTestCatalog } from './support.js';

const FILES = {
  json: ['settings.json', '{\n  "a": 1\n}\n', '{\n  "a": 2,\n  "b": [true]\n}\n'],
  yaml: ['config.yml', 'a: 1\nlist:\n  - x\n', 'a: 2\nlist:\n  - y\n  - z\n'],
  conf: ['rclone.conf', '[remote]\ntype = webdav\n', '[remote]\ntype = webdav\nurl = http://x\n'],
  python: ['settings.py', 'A = 1\n', 'A = {"b": [1, 2]}  # comment (\nC = """multi\nline"""\n'],
  xml: [
    'config.xml',
    '<Config><Port>1</Port></Config>\n',
    '<?xml version="1.0"?>\n<Config>\n  <Port>2</Port>\n</Config>\n',
  ],
} as const;

function blocks(): Record<string, unknown> {
  const services: Record<string, unknown> = {};
  for (const [format, [file]] of Object.entries(FILES))
    services[`svc_${format}`] = fixtureBlock(`Svc ${format}`, program('long-running'), [], {
      enabled: false,
      config_file: `files/${file}`,
    });
  services.no_file = fixtureBlock('No File', program('long-running'), [], { enabled: false });
  services.absent = fixtureBlock('Absent', program('long-running'), [], {
    enabled: false,
    config_file: 'files/absent.json',
  });
  return services;
}

test('each format is read, replaced atomically with a backup, and read back', async (t) => {
  const host = await startWithTestCatalog(blocks());
  t.teardown(() => host.stop());
  const { mkdirSync } = await import('node:fs');
  mkdirSync(join(host.dataDir, 'files'));
  for (const [format, [file, before, after]] of Object.entries(FILES)) {
    const path = join(host.dataDir, 'files', file);
    writeFileSync(path, before);
    const read = await request(host.url, '/config/service-config', {
      body: { service_name: `Svc ${format}` },
    });
    t.is(read.status, 200, `${format}: ${read.text}`);
    t.like(read.body, {
      service: `Svc ${format}`,
      config_format: format,
      raw: before,
      service_path: path,
    });
    const written = await request(host.url, '/config/service-config', {
      body: { service_name: `Svc ${format}`, updates: after },
    });
    t.is(written.status, 200, `${format}: ${written.text}`);
    t.like(written.body, { status: 'Config updated successfully', backup_path: `${path}.bak` });
    t.is(readFileSync(path, 'utf8'), after, format);
    t.is(readFileSync(`${path}.bak`, 'utf8'), before, format);
    const again = await request(host.url, '/config/service-config', {
      body: { service_name: `Svc ${format}` },
    });
    t.is(again.body.raw, after, format);
  }
  const json = await request(host.url, '/config/service-config', {
    body: { service_name: 'svc_json' },
  });
  t.deepEqual(json.body.config, { a: 2, b: [true] });
  const yaml = await request(host.url, '/config/service-config', {
    body: { service_name: 'Svc yaml' },
  });
  t.deepEqual(yaml.body.config, { a: 2, list: ['y', 'z'] });
});

test('invalid content is rejected naming the line, and the file is unchanged', async (t) => {
  const host = await startWithTestCatalog(blocks());
  t.teardown(() => host.stop());
  const { mkdirSync } = await import('node:fs');
  mkdirSync(join(host.dataDir, 'files'));
  const invalid = {
    yaml: 'a: 1\nb: [1, 2\nc: 3\n',
    json: '{\n  "a": 1,\n}\n',
    xml: '<Config>\n<Port>1</Config>\n',
    conf: '[remote]\ntype = webdav\nthis is not a setting\n',
    python: 'A = (1,\nB = 2\n',
  } as const;
  for (const [format, content] of Object.entries(invalid)) {
    const [file, before] = FILES[format as keyof typeof FILES];
    const path = join(host.dataDir, 'files', file);
    writeFileSync(path, before);
    const response = await request(host.url, '/config/service-config', {
      body: { service_name: `Svc ${format}`, updates: content },
    });
    t.is(response.status, 422, format);
    t.like(response.body, { code: 'SERVICE_CONFIG_INVALID', field: 'updates' });
    t.regex(response.body.detail, /on line \d+/, format);
    t.is(readFileSync(path, 'utf8'), before, `${format} unchanged`);
  }
  const yaml = await request(host.url, '/config/service-config', {
    body: { service_name: 'Svc yaml', updates: invalid.yaml },
  });
  t.regex(yaml.body.detail, /^Invalid yaml on line [34]:/);
  const conf = await request(host.url, '/config/service-config', {
    body: { service_name: 'Svc conf', updates: invalid.conf },
  });
  t.regex(conf.body.detail, /on line 3/);

  const unknown = await request(host.url, '/config/service-config', {
    body: { service_name: 'Nope' },
  });
  t.is(unknown.status, 404);
  const noFile = await request(host.url, '/config/service-config', {
    body: { service_name: 'No File' },
  });
  t.like(noFile, { status: 400, body: { code: 'SERVICE_CONFIG_NO_FILE' } });
  const missing = await request(host.url, '/config/service-config', {
    body: { service_name: 'Absent' },
  });
  t.like(missing, { status: 404, body: { code: 'SERVICE_CONFIG_FILE_NOT_FOUND' } });
});

test('the edited structure (as the DUMB dashboard sends it) is written back in the file format', async (t) => {
  const host = await startWithTestCatalog(blocks());
  t.teardown(() => host.stop());
  const { mkdirSync } = await import('node:fs');
  mkdirSync(join(host.dataDir, 'files'));
  for (const [file, before] of Object.values(FILES))
    writeFileSync(join(host.dataDir, 'files', file), before);
  for (const format of ['json', 'yaml', 'conf', 'xml'] as const) {
    const name = `Svc ${format}`;
    const read = await request(host.url, '/config/service-config', {
      body: { service_name: name },
    });
    t.is(read.status, 200, read.text);
    const edited = structuredClone(read.body.config) as Record<string, unknown>;
    if (format === 'conf') (edited.remote as Record<string, string>).url = 'http://edited';
    else if (format === 'xml') (edited.Config as Record<string, unknown>).Port = 9;
    else edited.a = 42;
    const written = await request(host.url, '/config/service-config', {
      body: { service_name: name, updates: edited, config_format: format },
    });
    t.is(written.status, 200, `${format}: ${written.text}`);
    const again = await request(host.url, '/config/service-config', {
      body: { service_name: name },
    });
    t.deepEqual(again.body.config, edited, format);
  }
  const python = await request(host.url, '/config/service-config', {
    body: { service_name: 'Svc python', updates: { A: 1 }, config_format: 'python' },
  });
  t.is(python.status, 422);
  t.is(python.body.field, 'updates');
});

test('a dry run tells the field diff (secrets as changed) and the changed lines, writing nothing', async (t) => {
  const host = await startWithTestCatalog(blocks());
  t.teardown(() => host.stop());
  const { mkdirSync } = await import('node:fs');
  mkdirSync(join(host.dataDir, 'files'));
  const path = join(host.dataDir, 'files', 'config.xml');
  const before =
    '<Config>\n  <Port>8989</Port>\n  <ApiKey>old-key-1</ApiKey>\n  <Branch>main</Branch>\n</Config>\n';
  const after =
    '<Config>\n  <Port>8990</Port>\n  <ApiKey>new-key-2</ApiKey>\n  <Branch>main</Branch>\n</Config>\n';
  writeFileSync(path, before);
  for (const [route, body] of [
    ['/config/service-config', { service_name: 'Svc xml', updates: after, dry_run: true }],
    ['/config/service-config/preview', { service_name: 'Svc xml', updates: after }],
  ] as const) {
    const preview = await request(host.url, route, { body });
    t.is(preview.status, 200, `${route}: ${preview.text}`);
    t.like(preview.body, {
      status: 'dry_run',
      service: 'Svc xml',
      exists: true,
      changed: true,
      lines: { old_lines: 6, new_lines: 6, first_changed: 2, last_changed: 3 },
      effect: { process_name: 'Svc xml', action: 'nothing' },
    });
    t.deepEqual(preview.body.diff, [
      { path: 'Config.Port', old: 8989, new: 8990 },
      { path: 'Config.ApiKey', secret: 'changed' },
    ]);
    t.false(preview.text.includes('new-key-2') || preview.text.includes('old-key-1'));
    t.is(readFileSync(path, 'utf8'), before, 'nothing written');
  }
  // The same 422 as the write, and still nothing written.
  const bad = { service_name: 'Svc xml', updates: '<Config><Port>1</Config>\n' };
  const [write, dry] = [
    await request(host.url, '/config/service-config/preview', { body: bad }),
    await request(host.url, '/config/service-config', { body: bad }),
  ];
  t.is(write.status, 422);
  t.deepEqual(dry.body, write.body);
  t.is(readFileSync(path, 'utf8'), before);
  // A file that does not exist yet: the whole structure is new.
  const fresh = await request(host.url, '/config/service-config/preview', {
    body: { service_name: 'Absent', updates: '{"a": 1}' },
  });
  t.is(fresh.status, 200, fresh.text);
  t.like(fresh.body, { exists: false, changed: true, diff: [{ path: '', new: { a: 1 } }] });
});
