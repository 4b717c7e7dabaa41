/**
 * Configuration changes against the real host: the preview's plan equals what POST /config then
 * does (process pids), If-Match refuses a stale writer, rollback and history survive a restart,
 * and edits on disk are applied or refused.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { freePort } from '../../helpers/ports.js';
import { startHost, tempDir, writeConfig } from '../../helpers/start-host.js';

type Json = Record<string, any>;
const PLUGINS = ['supervisor', 'graph'];
const SLOW = { timeoutMs: 60_000, intervalMs: 200 };

function server(port: number): string[] {
  return ['node', '-e', `require('http').createServer((q,s)=>s.end('ok')).listen(${port})`];
}

async function stack() {
  const port = await freePort();
  return {
    port,
    config: {
      web: {
        process_name: 'Web',
        enabled: true,
        command: server(port),
        port,
        restart_dependents: true,
      },
      sonarr: {
        process_name: 'Sonarr',
        enabled: true,
        command: ['sleep', '1000'],
        wait_for_url: [`http://127.0.0.1:${port}/`],
      },
      radarr: {
        process_name: 'Radarr',
        enabled: true,
        command: ['sleep', '1001'],
        wait_for_url: [`http://127.0.0.1:${port}/`],
      },
      idle: { process_name: 'Idle', enabled: false, command: ['sleep', '1002'] },
    },
  };
}

async function pids(url: string): Promise<Record<string, number | null>> {
  const list = await request<Json>(url, '/process/processes');
  return Object.fromEntries(
    (list.body.processes as Json[]).map((entry) => [entry.process_name, entry.pid ?? null]),
  );
}

async function allRunning(url: string, names: string[]): Promise<Record<string, number | null>> {
  return eventually(async () => {
    const now = await pids(url);
    return names.every((name) => typeof now[name] === 'number') ? now : undefined;
  }, SLOW);
}

/** Preview a change, make it, and compare the predicted effects with the pids that changed. */
async function previewThenApply(t: any, url: string, body: Json, running: string[]) {
  const before = await allRunning(url, running);
  const preview = await request<Json>(url, '/config/preview', { body });
  t.is(preview.status, 200, preview.text);
  const acting = (preview.body.processes as Json[]).filter((entry) =>
    ['restart', 'start', 'stop'].includes(entry.action),
  );
  const update = await request<Json>(url, '/config', { body });
  t.is(update.status, 200, update.text);
  const expected = new Map(acting.map((entry) => [entry.process_name as string, entry.action]));
  const after = await eventually(async () => {
    const now = await pids(url);
    const settled = [...expected].every(([name, action]) =>
      action === 'stop'
        ? now[name] === null || now[name] === undefined
        : typeof now[name] === 'number' && now[name] !== before[name],
    );
    return settled ? now : undefined;
  }, SLOW);
  for (const name of Object.keys(before))
    if (!expected.has(name)) t.is(after[name], before[name], `${name} was left alone`);
  return preview.body;
}

test('the preview of each kind of change is what POST /config then does', async (t) => {
  const { port, config } = await stack();
  const host = await startHost({ plugins: PLUGINS, config, bootTimeoutMs: 60_000 });
  try {
    const all = ['Web', 'Sonarr', 'Radarr'];
    // A command: Web restarts, and what waits on it (restart_dependents), Web first.
    const command = await previewThenApply(
      t,
      host.url,
      { process_name: 'Web', updates: { command: [...server(port), '--'] } },
      all,
    );
    t.deepEqual(
      command.order.map((step: Json) => step.process_name),
      ['Web', 'Sonarr', 'Radarr'],
    );
    t.is(command.processes[1].because_of, 'Web');
    // A port: that process only.
    const newPort = await freePort();
    const portChange = await previewThenApply(
      t,
      host.url,
      { process_name: 'Radarr', updates: { port: newPort } },
      all,
    );
    t.deepEqual(portChange.diff, [{ path: 'radarr.port', new: newPort }]);
    t.deepEqual(portChange.order, [{ process_name: 'Radarr', action: 'restart' }]);
    // An env var (a secret shown only as changed): that process only.
    const env = await previewThenApply(
      t,
      host.url,
      { process_name: 'Sonarr', updates: { env: { SONARR_API_KEY: 'hunter2' } } },
      all,
    );
    t.false(JSON.stringify(env).includes('hunter2'));
    t.deepEqual(env.order, [{ process_name: 'Sonarr', action: 'restart' }]);
    // Enabling and disabling.
    const enable = await previewThenApply(
      t,
      host.url,
      { process_name: 'Idle', updates: { enabled: true } },
      all,
    );
    t.deepEqual(enable.order, [{ process_name: 'Idle', action: 'start' }]);
    const disable = await previewThenApply(
      t,
      host.url,
      { process_name: 'Idle', updates: { enabled: false } },
      [...all, 'Idle'],
    );
    t.deepEqual(disable.order, [{ process_name: 'Idle', action: 'stop' }]);
    // An instance added, then removed (a global update).
    const added = await previewThenApply(
      t,
      host.url,
      {
        updates: {
          extra: {
            instances: {
              One: { process_name: 'Extra One', enabled: true, command: ['sleep', '1003'] },
            },
          },
        },
      },
      all,
    );
    t.deepEqual(added.order, [{ process_name: 'Extra One', action: 'start' }]);
    // A reload-free field and a plugin's slice: nothing restarts.
    const quiet = await previewThenApply(
      t,
      host.url,
      { updates: { radarr: { stop_timeout: 3 }, stackd: { supervisor: { log_keep: 2 } } } },
      [...all, 'Extra One'],
    );
    t.deepEqual(quiet.order, []);
    t.is(
      (quiet.processes as Json[]).find((entry) => entry.process_name === 'Radarr')?.action,
      'reload_free',
    );
    // Invalid: the same 422 as POST /config.
    const bad = { process_name: 'Web', updates: { command: [] } };
    const [previewBad, updateBad] = [
      await request<Json>(host.url, '/config/preview', { body: bad }),
      await request<Json>(host.url, '/config', { body: bad }),
    ];
    t.is(previewBad.status, 422);
    t.deepEqual(previewBad.body, updateBad.body);
  } finally {
    await host.stop();
  }
});

test('a port change fans out to both dependents in order; a wait left behind is warned about', async (t) => {
  const { port, config } = await stack();
  const host = await startHost({ plugins: PLUGINS, config, bootTimeoutMs: 60_000 });
  try {
    const all = ['Web', 'Sonarr', 'Radarr'];
    const moved = await freePort();
    // Forgetting the dependents: valid, but the preview names both waits still on the old port.
    const forgetful = await request<Json>(host.url, '/config/preview', {
      body: { process_name: 'Web', updates: { port: moved, command: server(moved) } },
    });
    t.is(forgetful.status, 200, forgetful.text);
    t.deepEqual(
      (forgetful.body.warnings as Json[]).map((warning) => [warning.process_name, warning.field]),
      [
        ['Sonarr', 'sonarr.wait_for_url'],
        ['Radarr', 'radarr.wait_for_url'],
      ],
    );
    // The realistic edit: Web moves and both waits follow it, in one change.
    const wait = [`http://127.0.0.1:${moved}/`];
    const preview = await previewThenApply(
      t,
      host.url,
      {
        updates: {
          web: { port: moved, command: server(moved) },
          sonarr: { wait_for_url: wait },
          radarr: { wait_for_url: wait },
        },
      },
      all,
    );
    t.deepEqual(preview.warnings, []);
    t.deepEqual(preview.order, [
      { process_name: 'Web', action: 'restart' },
      { process_name: 'Sonarr', action: 'restart' },
      { process_name: 'Radarr', action: 'restart' },
    ]);
    const sonarr = (preview.processes as Json[]).find((entry) => entry.process_name === 'Sonarr');
    t.is(sonarr?.because_of, 'Web');
    t.deepEqual(sonarr?.fields, ['wait_for_url']);
    t.true(
      (preview.diff as Json[]).some(
        (change) => change.path === 'web.port' && change.old === port && change.new === moved,
      ),
    );
    // The dependents came up again behind the new port (their waits passed).
    await allRunning(host.url, all);
  } finally {
    await host.stop();
  }
});

test('two writers with one ETag: one wins, the other gets 412 and the file holds the winner', async (t) => {
  const { config } = await stack();
  const host = await startHost({
    plugins: PLUGINS,
    config: { idle: config.idle },
    bootTimeoutMs: 60_000,
  });
  try {
    const read = await request<Json>(host.url, '/config');
    const etag = read.headers.get('etag') ?? '';
    t.regex(etag, /^"\d+"$/);
    const write = (value: string) =>
      request<Json>(host.url, '/config', {
        headers: { 'if-match': etag },
        body: { process_name: 'Idle', updates: { note: value }, persist: true },
      });
    const answers = await Promise.all([write('first'), write('second')]);
    const statuses = answers.map((answer) => answer.status).sort();
    t.deepEqual(statuses, [200, 412]);
    const winner = answers.findIndex((answer) => answer.status === 200) === 0 ? 'first' : 'second';
    const loser = answers.find((answer) => answer.status === 412);
    t.is(loser?.body.code, 'CONFIG_STALE');
    t.is(loser?.headers.get('etag'), `"${loser?.body.generation}"`);
    const onDisk = JSON.parse(readFileSync(host.configPath ?? '', 'utf8')) as Json;
    t.is(onDisk.idle.note, winner);
    // Without If-Match it works as before.
    const plain = await request<Json>(host.url, '/config', {
      body: { process_name: 'Idle', updates: { note: 'x' } },
    });
    t.is(plain.status, 200);
  } finally {
    await host.stop();
  }
});

test('rollback brings a broken process back; history survives a restart; edits on disk', async (t) => {
  const dataDir = tempDir('stackd-data-');
  const configPath = writeConfig({
    app: { process_name: 'App', enabled: true, command: ['sleep', '1000'] },
  });
  let host = await startHost({ plugins: PLUGINS, configPath, dataDir, bootTimeoutMs: 60_000 });
  try {
    await allRunning(host.url, ['App']);
    const broken = await request<Json>(host.url, '/config', {
      body: { process_name: 'App', updates: { command: ['false'] }, persist: true, reason: 'oops' },
    });
    t.is(broken.status, 200);
    await eventually(async () => (await pids(host.url)).App === null, SLOW);
    const history = await request<Json>(host.url, '/config/history');
    t.deepEqual(
      history.body.versions.map((entry: Json) => entry.version),
      [2, 1],
    );
    t.is(history.body.versions[0].reason, 'oops');
    const dry = await request<Json>(host.url, '/config/rollback', {
      body: { version: 1, dry_run: true },
    });
    t.is(dry.body.status, 'dry_run');
    t.is(JSON.parse(readFileSync(configPath, 'utf8')).app.command[0], 'false');
    const rollback = await request<Json>(host.url, '/config/rollback', { body: { version: 1 } });
    t.is(rollback.status, 200, rollback.text);
    await allRunning(host.url, ['App']);
    t.deepEqual(JSON.parse(readFileSync(configPath, 'utf8')).app.command, ['sleep', '1000']);

    // History across a host restart.
    await host.stop();
    host = await startHost({ plugins: PLUGINS, configPath, dataDir, bootTimeoutMs: 60_000 });
    const again = await request<Json>(host.url, '/config/history');
    t.deepEqual(
      again.body.versions.map((entry: Json) => entry.version),
      [3, 2, 1],
    );
    const version = await request<Json>(host.url, '/config/history/2');
    t.deepEqual(version.body.document.app.command, ['false']);

    // A valid edit on disk is applied and recorded; an invalid one is refused and shown.
    const before = await allRunning(host.url, ['App']);
    writeFileSync(
      configPath,
      '{\n  // edited\n  "app": {"process_name": "App", "enabled": true, "command": ["sleep", "999"]},\n}\n',
    );
    await eventually(async () => {
      const now = await pids(host.url);
      return typeof now.App === 'number' && now.App !== before.App;
    }, SLOW);
    const recorded = await request<Json>(host.url, '/config/history');
    t.is(recorded.body.versions[0].actor, 'file');
    writeFileSync(
      configPath,
      '{"app": {"process_name": "App", "enabled": true, "port": "eighty"}}\n',
    );
    const health = await eventually(async () => {
      const answer = await request<Json>(host.url, '/health');
      return answer.body.status === 'unhealthy' ? answer.body : undefined;
    }, SLOW);
    t.true(String(health.details).includes(configPath));
    t.true(String(health.details).includes('app.port'));
    const running = await request<Json>(host.url, '/config');
    t.deepEqual(running.body.app.command, ['sleep', '999']);
  } finally {
    await host.stop();
  }
});

test('an invalid block is refused at boot by name and field, before anything starts', async (t) => {
  const configPath = writeConfig({
    web: { process_name: 'Web', enabled: true, command: ['sleep', '1000'], port: 'eighty' },
  });
  const error = await t.throwsAsync(
    startHost({ plugins: PLUGINS, configPath, bootTimeoutMs: 60_000 }),
  );
  t.regex(error?.message ?? '', /Invalid configuration at 'web\.port'/);
  t.notRegex(error?.message ?? '', /starting \d+ enabled/);
});
