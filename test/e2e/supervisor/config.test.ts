import { readFileSync } from 'node:fs';
import test from 'ava';
import { request } from '../../helpers/http.js';
import { startHost, tempDir, writeConfig } from '../../helpers/start-host.js';
import {
  PARTS_PLUGIN,
  PLANTED_SECRET,
  partsConfig,
} from '../../fixtures/plugins/supervisor-parts/host-setup.js';

type Json = Record<string, any>;

async function bootOn(configPath: string, dataDir: string) {
  return startHost({ plugins: [PARTS_PLUGIN], configPath, dataDir });
}

test('GET /config redacts secrets; a block alone too; unknown process 404', async (t) => {
  const host = await startHost({ plugins: [PARTS_PLUGIN], config: partsConfig() });
  try {
    const whole = await request<Json>(host.url, '/config');
    t.is(whole.status, 200);
    t.false(whole.text.includes(PLANTED_SECRET));
    t.is(whole.body.chatter.api_key, '[REDACTED]');
    t.is(whole.body.chatter.env.CHATTER_SECRET, '[REDACTED]');
    t.is(whole.body.chatter.env.PLAIN, 'visible');
    t.deepEqual(whole.body.idle.instances.One.unknown_field, [1]);

    const block = await request<Json>(host.url, '/config?process_name=Idle%20One');
    t.deepEqual(block.body, {
      enabled: false,
      process_name: 'Idle One',
      command: ['true'],
      unknown_field: [1],
    });
    const chatter = await request<Json>(host.url, '/api/config?process_name=chatter');
    t.is(chatter.body.api_key, '[REDACTED]');

    const unknown = await request<Json>(host.url, '/config?process_name=Nobody');
    t.is(unknown.status, 404);
    t.is(unknown.body.code, 'PROCESS_NOT_FOUND');
  } finally {
    await host.stop();
  }
});

test('a persisted process update survives a restart; only that block is written', async (t) => {
  const configPath = writeConfig(partsConfig());
  const dataDir = tempDir('stackd-data-');
  const host = await bootOn(configPath, dataDir);
  try {
    // An in-memory change to another block first: persisting Chatter must not write it.
    const memoryOnly = await request<Json>(host.url, '/config', {
      body: { process_name: 'Quiet', updates: { port: 9300 } },
    });
    t.deepEqual(memoryOnly.body, {
      status: 'ok',
      scope: 'process',
      process_name: 'Quiet',
      persisted: false,
      keys: ['port'],
    });
    const persisted = await request<Json>(host.url, '/config', {
      body: {
        process_name: 'Chatter',
        updates: { port: 9200, api_key: '[REDACTED]', note: 'added' },
        persist: true,
      },
    });
    t.is(persisted.status, 200);
    t.true(persisted.body.persisted);
    const onDisk = JSON.parse(readFileSync(configPath, 'utf8'));
    t.is(onDisk.chatter.port, 9200);
    t.is(onDisk.chatter.note, 'added');
    t.is(onDisk.chatter.api_key, PLANTED_SECRET, 'the redacted secret posted back was kept');
    t.is(onDisk.quiet.port, 9100);
    t.deepEqual((await request<string[]>(host.url, '/test-parts/changed')).body, [
      'Quiet',
      'Chatter',
    ]);
  } finally {
    await host.stop();
  }
  const again = await bootOn(configPath, dataDir);
  try {
    const block = await request<Json>(again.url, '/config?process_name=Chatter');
    t.is(block.body.port, 9200);
    t.is(block.body.note, 'added');
    const quiet = await request<Json>(again.url, '/config?process_name=Quiet');
    t.is(quiet.body.port, 9100, 'the unsaved change to Quiet did not survive');
  } finally {
    await again.stop();
  }
});

test('a rejected update answers 422 naming the field and leaves memory and file as they were', async (t) => {
  const configPath = writeConfig(partsConfig());
  const host = await bootOn(configPath, tempDir('stackd-data-'));
  try {
    const before = readFileSync(configPath);
    const rejected = await request<Json>(host.url, '/config', {
      body: { process_name: 'Chatter', updates: { port: 70_000, note: 'x' }, persist: true },
    });
    t.is(rejected.status, 422);
    t.is(rejected.body.field, 'updates.port');
    t.is(rejected.body.code, 'CONFIG_INVALID');

    const global = await request<Json>(host.url, '/config', {
      body: { updates: { idle: { instances: { One: { enabled: 'yes' } } } }, persist: true },
    });
    t.is(global.status, 422);
    t.is(global.body.field, 'updates.idle.instances.One.enabled');

    const missing = await request<Json>(host.url, '/config', { body: { process_name: 'Chatter' } });
    t.is(missing.status, 422);
    t.is(missing.body.field, 'updates');

    t.true(readFileSync(configPath).equals(before), 'the file is byte-identical');
    const block = await request<Json>(host.url, '/config?process_name=Chatter');
    t.is(block.body.port, 9100);
    t.is(block.body.note, undefined);
  } finally {
    await host.stop();
  }
});

test('schemas, global update, and the earlier-generation save and validate', async (t) => {
  const configPath = writeConfig(partsConfig());
  const host = await bootOn(configPath, tempDir('stackd-data-'));
  try {
    const schema = await request<Json>(host.url, '/config/schema');
    t.is(schema.body.type, 'object');
    t.truthy(schema.body.properties.stackd);
    const blockSchema = await request<Json>(host.url, '/config/process-config/schema', {
      body: { process_name: 'Chatter' },
    });
    t.deepEqual(blockSchema.body.properties.port, { type: 'integer', minimum: 1, maximum: 65535 });
    t.deepEqual(blockSchema.body.required, ['process_name']);
    const unknownSchema = await request<Json>(host.url, '/config/process-config/schema', {
      body: { process_name: 'Nobody' },
    });
    t.is(unknownSchema.status, 404);

    const before = readFileSync(configPath, 'utf8');
    const global = await request<Json>(host.url, '/config', {
      body: { updates: { newservice: { theme: 'dark' }, chatter: { env: { EXTRA: '1' } } } },
    });
    t.deepEqual(global.body, {
      status: 'ok',
      scope: 'global',
      process_name: null,
      persisted: false,
      keys: ['newservice', 'chatter'],
    });
    t.is(readFileSync(configPath, 'utf8'), before, 'not persisted unless asked');
    const whole = await request<Json>(host.url, '/config');
    t.deepEqual(whole.body.chatter.env, {
      CHATTER_SECRET: '[REDACTED]',
      PLAIN: 'visible',
      EXTRA: '1',
    });

    const saved = await request<Json>(host.url, '/config/save', { method: 'POST' });
    t.deepEqual(saved.body, { status: 'saved', path: configPath });
    const onDisk = JSON.parse(readFileSync(configPath, 'utf8'));
    t.deepEqual(onDisk.newservice, { theme: 'dark' });
    t.is(onDisk.chatter.env.CHATTER_SECRET, PLANTED_SECRET);

    const invalid = partsConfig() as Json;
    invalid.chatter.port = 'high';
    invalid.quiet.process_name = 'Chatter';
    const validation = await request<{ valid: boolean; errors: Array<{ field: string }> }>(
      host.url,
      '/config/validate',
      { body: invalid },
    );
    t.false(validation.body.valid);
    t.deepEqual(
      validation.body.errors.map((error) => error.field),
      ['chatter.port', 'quiet.process_name'],
    );
    const fine = await request<Json>(host.url, '/config/validate', { body: partsConfig() });
    t.deepEqual(fine.body, { valid: true, errors: [] });

    const openapi = await request<Json>(host.url, '/openapi.json');
    t.true(openapi.body.paths['/config/save'].post.deprecated);
    t.true(openapi.body.paths['/config/validate'].post.deprecated);
  } finally {
    await host.stop();
  }
});

test('GET /config/schema shows every loaded plugin slice with its descriptions', async (t) => {
  const host = await startHost({ plugins: ['supervisor', 'graph'], config: partsConfig() });
  try {
    const schema = await request<Json>(host.url, '/config/schema');
    const stackd = schema.body.properties.stackd.properties;
    t.truthy(stackd.api_service);
    t.is(stackd.supervisor.type, 'object');
    t.is(typeof stackd.supervisor.properties.log_max_bytes.description, 'string');
    t.is(stackd.graph.type, 'object');
    t.is(stackd.metrics, undefined, 'a plugin not loaded shows no slice');
  } finally {
    await host.stop();
  }
});
