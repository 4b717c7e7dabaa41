import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { ConfigStore } from '../../../../core/config/config-store.js';
import {
  updateDocument,
  updateProcessBlock,
} from '../../../../plugins/supervisor/config-model/config-updates.js';
import { documentValidator } from '../../../../plugins/supervisor/config-model/config-validation.js';

const initial = {
  stackd: { api_service: { process_name: 'stackd API', port: 8000 } },
  web: { enabled: true, process_name: 'Web', command: ['node', 'w.js'], port: 8081, api_key: 'k1' },
  sonarr: {
    instances: {
      Anime: { enabled: false, process_name: 'Sonarr Anime', command: ['s'], port: 8990 },
    },
  },
};

function store(): { stack: ConfigStore; file: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'stackd-cfg-')), 'stackd.json');
  writeFileSync(file, `${JSON.stringify(initial, null, 2)}\n`);
  const stack = new ConfigStore({ readPath: file, writePath: file, origin: 'file' }, initial);
  stack.addValidator(documentValidator);
  return { stack, file };
}

test('a process update merges keys into the block, in memory only by default', async (t) => {
  const { stack, file } = store();
  const before = readFileSync(file, 'utf8');
  const { result } = await updateProcessBlock(stack, {
    processName: 'sonarr anime',
    updates: { port: 8991, extra: 'kept' },
    persist: false,
  });
  t.deepEqual(result, {
    status: 'ok',
    scope: 'process',
    process_name: 'Sonarr Anime',
    persisted: false,
    keys: ['port', 'extra'],
  });
  const block = (stack.read() as any).sonarr.instances.Anime;
  t.is(block.port, 8991);
  t.is(block.extra, 'kept');
  t.is(block.command[0], 's');
  t.is(readFileSync(file, 'utf8'), before);
});

test('persist writes only that block: other unsaved changes stay out of the file', async (t) => {
  const { stack, file } = store();
  await updateProcessBlock(stack, { processName: 'Web', updates: { port: 9001 }, persist: false });
  await updateProcessBlock(stack, {
    processName: 'Sonarr Anime',
    updates: { enabled: true },
    persist: true,
  });
  const onDisk = JSON.parse(readFileSync(file, 'utf8'));
  t.true(onDisk.sonarr.instances.Anime.enabled);
  t.is(onDisk.web.port, 8081);
});

test('a rejected update names the request field and changes nothing', async (t) => {
  const { stack, file } = store();
  const before = readFileSync(file, 'utf8');
  const error = await t.throwsAsync(
    updateProcessBlock(stack, { processName: 'Web', updates: { port: 70_000 }, persist: true }),
  );
  t.is((error as any).status, 422);
  t.is((error as any).field, 'updates.port');
  t.is((stack.read() as any).web.port, 8081);
  t.is(readFileSync(file, 'utf8'), before);
});

test('renaming onto another process name is rejected by the document validator', async (t) => {
  const { stack } = store();
  const error = await t.throwsAsync(
    updateProcessBlock(stack, {
      processName: 'Web',
      updates: { process_name: 'Sonarr Anime' },
      persist: false,
    }),
  );
  t.is((error as any).status, 422);
  t.is((error as any).field, 'updates.process_name');
  t.is((stack.read() as any).web.process_name, 'Web');
});

test('an unknown process is 404', async (t) => {
  const { stack } = store();
  const error = await t.throwsAsync(
    updateProcessBlock(stack, { processName: 'Nope', updates: {}, persist: false }),
  );
  t.is((error as any).status, 404);
});

test('a redacted secret posted back keeps the stored value', async (t) => {
  const { stack } = store();
  await updateProcessBlock(stack, {
    processName: 'Web',
    updates: { api_key: '[REDACTED]', port: 8082 },
    persist: false,
  });
  const block = (stack.read() as any).web;
  t.is(block.api_key, 'k1');
  t.is(block.port, 8082);
});

test('a global update deep-merges, validates the whole document and persists when asked', async (t) => {
  const { stack, file } = store();
  const result = await updateDocument(stack, {
    updates: { web: { env: { A: 'b' } }, newservice: { theme: 'x' } },
    persist: true,
  });
  t.deepEqual(result.keys, ['web', 'newservice']);
  const onDisk = JSON.parse(readFileSync(file, 'utf8'));
  t.deepEqual(onDisk.web.env, { A: 'b' });
  t.is(onDisk.web.port, 8081);
  t.deepEqual(onDisk.newservice, { theme: 'x' });

  const before = readFileSync(file, 'utf8');
  const error = await t.throwsAsync(
    updateDocument(stack, {
      updates: { sonarr: { instances: { Anime: { port: 'x' } } } },
      persist: true,
    }),
  );
  t.is((error as any).field, 'updates.sonarr.instances.Anime.port');
  t.is(readFileSync(file, 'utf8'), before);
  t.is((stack.read() as any).sonarr.instances.Anime.port, 8990);
});
