import test from 'ava';
import {
  validateDocument,
  documentValidator,
} from '../../../../plugins/supervisor/config-model/config-validation.js';
import { deepMerge } from '../../../../plugins/supervisor/config-model/config-merge.js';

const valid = {
  stackd: { api_service: { enabled: true, process_name: 'stackd API', port: 8000 }, auth: {} },
  puid: 1000,
  web: {
    enabled: true,
    process_name: 'Web',
    command: ['node', 'server.js', '--port', '{port}'],
    port: 8081,
    env: { NODE_ENV: 'production' },
    wait_for_url: ['http://127.0.0.1:8082/health', { url: 'http://x/ping', timeout: 5 }],
    wait_for_tcp: { host: '127.0.0.1', port: 5432 },
    custom_field: { anything: [1, 2, 3] },
  },
  db: { process_name: 'DB', command: 'postgres -D {config_dir}' },
  worker: {
    instances: {
      Primary: { enabled: true, process_name: 'Worker Primary', command: ['node', 'w.js'] },
      Notes: { description: 'not a process' },
    },
  },
  extras: { theme: 'dark' },
};

test('a valid document (unknown fields and non-process objects included) has no failures', (t) => {
  t.deepEqual(validateDocument(structuredClone(valid)), []);
  t.notThrows(() => documentValidator(valid));
});

const invalid: ReadonlyArray<readonly [string, (doc: any) => void, string]> = [
  ['port out of range', (doc) => (doc.web.port = 70_000), 'web.port'],
  ['port as text', (doc) => (doc.web.port = '8081'), 'web.port'],
  ['enabled not boolean', (doc) => (doc.web.enabled = 'yes'), 'web.enabled'],
  ['empty process_name', (doc) => (doc.web.process_name = ' '), 'web.process_name'],
  ['command of numbers', (doc) => (doc.web.command = [1, 2]), 'web.command'],
  ['env value not a string', (doc) => (doc.web.env = { A: 1 }), 'web.env.A'],
  [
    'wait_for_tcp port missing',
    (doc) => (doc.web.wait_for_tcp = { host: 'x' }),
    'web.wait_for_tcp',
  ],
  [
    'an instance port',
    (doc) => (doc.worker.instances.Primary.port = 0),
    'worker.instances.Primary.port',
  ],
  ['a command without process_name', (doc) => delete doc.db.process_name, 'db.process_name'],
  ['api_service port', (doc) => (doc.stackd.api_service.port = -1), 'stackd.api_service.port'],
  ['duplicate process_name', (doc) => (doc.db.process_name = 'Web'), 'db.process_name'],
];

for (const [what, mutate, field] of invalid) {
  test(`rejected: ${what} → ${field}`, (t) => {
    const doc = structuredClone(valid);
    mutate(doc);
    const failures = validateDocument(doc);
    t.is(failures[0]?.path.join('.'), field);
    const error = t.throws(() => documentValidator(doc));
    t.is((error as { field?: string }).field, field);
    t.is((error as { status?: number }).status, 422);
  });
}

test('every failure is listed, not only the first', (t) => {
  const doc: any = structuredClone(valid);
  doc.web.port = 0;
  doc.db.enabled = 'no';
  t.deepEqual(
    validateDocument(doc).map((failure) => failure.path.join('.')),
    ['web.port', 'db.enabled'],
  );
});

test('deepMerge merges objects and replaces arrays and scalars', (t) => {
  const target = { ui: { log_timestamp: true, sidebar: { compact: false } }, list: [1, 2], n: 1 };
  const result = deepMerge(target, { ui: { sidebar: { compact: true } }, list: [3], n: null });
  t.is(result, target);
  t.deepEqual(target, {
    ui: { log_timestamp: true, sidebar: { compact: true } },
    list: [3],
    n: null,
  });
});
