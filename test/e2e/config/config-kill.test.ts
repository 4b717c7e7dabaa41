/**
 * SIGKILL in the middle of configuration writes: the file on disk holds one whole version (the
 * last one acknowledged, or the one in flight), never a mix of two, and the host that starts
 * next boots from it with a history that ends with it.
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { parse } from 'jsonc-parser';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { startHost, tempDir, writeConfig } from '../../helpers/start-host.js';

type Json = Record<string, any>;

const KEYS = 1500;
const ROUNDS = 4;

/** A large env whose every value carries the version number, so a mix shows at once. */
function bulkEnv(version: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (let key = 0; key < KEYS; key += 1)
    env[`K${String(key).padStart(4, '0')}`] = `v${version}-${'x'.repeat(100)}`;
  return env;
}

/** The one version every value of the env names; throws on a mix. */
function versionOf(env: Record<string, string>): number {
  const versions = new Set(Object.values(env).map((value) => Number(/^v(\d+)-/.exec(value)?.[1])));
  if (versions.size !== 1 || Object.keys(env).length !== KEYS)
    throw new Error(`a mixed or cut env: versions ${[...versions].join(',')}`);
  return [...versions][0] ?? -1;
}

function fileVersion(path: string): number {
  const errors: unknown[] = [];
  const document = parse(readFileSync(path, 'utf8'), errors as never) as Json;
  if (errors.length > 0) throw new Error(`the file does not parse: ${JSON.stringify(errors)}`);
  return versionOf(document.bulk.env as Record<string, string>);
}

test('SIGKILL during writes leaves one whole version, and the next host boots from it', async (t) => {
  const dataDir = tempDir('stackd-config-kill-');
  const configPath = writeConfig({
    bulk: { process_name: 'Bulk', enabled: false, command: ['sleep', '1000'], env: bulkEnv(0) },
  });
  let acknowledged = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const host = await startHost({
      plugins: ['supervisor'],
      dataDir,
      configPath,
      bootTimeoutMs: 60_000,
    });
    const booted = await request<Json>(host.url, '/config?process_name=Bulk');
    t.is(versionOf(booted.body.env), fileVersion(configPath), 'the host runs what the file holds');
    acknowledged = fileVersion(configPath);
    // Writes one after the other; the kill lands at a different point of a write each round.
    let next = acknowledged + 1;
    const writing = (async () => {
      for (;;) {
        const answer = await request(host.url, '/config', {
          body: { process_name: 'Bulk', updates: { env: bulkEnv(next) }, persist: true },
        }).catch(() => undefined);
        if (answer?.status !== 200) return;
        acknowledged = next;
        next += 1;
      }
    })();
    // Once two writes of this round are through, kill at a point that shifts each round.
    const start = acknowledged;
    await eventually(() => acknowledged >= start + 2, { timeoutMs: 60_000, what: 'two writes' });
    await new Promise((resolve) => setTimeout(resolve, round * 97));
    host.child.kill('SIGKILL');
    await host.stop();
    await writing;
    const onDisk = fileVersion(configPath);
    t.true(
      onDisk === acknowledged || onDisk === acknowledged + 1,
      `round ${round}: file holds v${onDisk}, last acknowledged v${acknowledged}`,
    );
  }
  t.true(acknowledged >= ROUNDS * 2, `writes happened between kills (${acknowledged})`);
  // The last host: its history ends with the document it booted from.
  const host = await startHost({
    plugins: ['supervisor'],
    dataDir,
    configPath,
    bootTimeoutMs: 60_000,
  });
  try {
    const history = await request<Json>(host.url, '/config/history');
    t.is(history.status, 200, history.text);
    const newest = history.body.versions[0] as Json;
    const version = await request<Json>(host.url, `/config/history/${newest.version}`);
    t.is(version.status, 200, version.text);
    t.is(versionOf(version.body.document.bulk.env), fileVersion(configPath));
    for (const entry of history.body.versions as Json[]) {
      const kept = await request<Json>(host.url, `/config/history/${entry.version}`);
      t.is(kept.status, 200, `version ${entry.version} is readable`);
      versionOf(kept.body.document.bulk.env);
    }
  } finally {
    await host.stop();
  }
});
