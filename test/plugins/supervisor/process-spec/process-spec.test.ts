import test from 'ava';
import { Value } from '@sinclair/typebox/value';
import { listProcessEntries } from '../../../../sdk/index.js';
import { SupervisorConfig } from '../../../../plugins/supervisor/config.js';
import {
  buildProcessSpec,
  logFilePath,
  type SpecContext,
} from '../../../../plugins/supervisor/process-spec/process-spec.js';

const defaults = Value.Default(SupervisorConfig, {}) as SupervisorConfig;
const context: SpecContext = {
  dataDir: '/data',
  hostEnv: { PATH: '/usr/bin', KEEP: 'host' },
  defaults,
  nodePath: '/opt/node/bin/node',
};

function entries(document: Record<string, unknown>) {
  return listProcessEntries(document);
}

test('plugin config defaults are applied, nested ones too', (t) => {
  t.is(defaults.log_max_bytes, 10 * 1024 * 1024);
  t.is(defaults.log_keep, 3);
  t.is(defaults.stop_timeout_sec, 10);
  t.like(defaults.restart_policy, { base_sec: 1, factor: 2, max_sec: 60, max_restarts: 5 });
});

test('a block becomes a spec: placeholders, node, cwd, env, defaults', (t) => {
  const [entry] = entries({
    web: {
      enabled: true,
      process_name: 'Web',
      command: ['node', 'server.js', '--port', '{port}'],
      port: 8081,
      config_dir: 'web',
      env: { NODE_ENV: 'production', PORT: '{port}', KEEP: 'block' },
    },
  });
  if (entry === undefined) return t.fail();
  const spec = buildProcessSpec(entry, context);
  t.deepEqual(spec.argv, ['/opt/node/bin/node', 'server.js', '--port', '8081']);
  t.is(spec.cwd, '/data/web');
  t.true(spec.createCwd);
  t.deepEqual(spec.env, { PATH: '/usr/bin', KEEP: 'block', NODE_ENV: 'production', PORT: '8081' });
  t.is(spec.stopSignal, 'SIGTERM');
  t.is(spec.stopTimeoutMs, 10_000);
  t.is(spec.waitBudgetMs, 600_000);
  t.is(spec.logFile, '/data/logs/web.log');
  t.true(spec.autoRestart);
  t.is(spec.health, null);
});

test('per-block stop, wait, restart and health settings override the defaults', (t) => {
  const [entry] = entries({
    db: {
      process_name: 'DB',
      command: 'postgres -D "{data}"',
      data: '/srv/pg data',
      config_dir: '/srv/pg',
      stop_signal: 'int',
      stop_timeout: 1.5,
      wait_timeout: 30,
      port: 5432,
      auto_restart: false,
      restart_policy: { base_sec: 2, max_restarts: 1 },
      health_check: { interval_sec: 5, unhealthy_threshold: 2 },
      suppress_logging: true,
    },
  });
  if (entry === undefined) return t.fail();
  const spec = buildProcessSpec(entry, context);
  t.deepEqual(spec.argv, ['postgres', '-D', '/srv/pg data']);
  t.is(spec.cwd, '/srv/pg');
  t.false(spec.createCwd, 'a config_dir outside the data dir is never created');
  t.is(spec.stopSignal, 'SIGINT');
  t.is(spec.stopTimeoutMs, 1500);
  t.is(spec.waitBudgetMs, 30_000);
  t.false(spec.autoRestart);
  t.like(spec.restartPolicy, { baseSec: 2, maxRestarts: 1, factor: 2, maxSec: 60 });
  t.deepEqual(spec.health, {
    intervalMs: 5000,
    unhealthyThreshold: 2,
    graceMs: 5000,
    host: '127.0.0.1',
    ports: [5432],
  });
  t.is(spec.logFile, null);
});

test('invalid fields fail naming them', (t) => {
  const spec = (block: Record<string, unknown>) => {
    const [entry] = entries({ x: { process_name: 'X', command: ['run'], ...block } });
    if (entry === undefined) throw new Error('no entry');
    return buildProcessSpec(entry, context);
  };
  t.throws(() => spec({ stop_signal: 'SIGNOPE' }), {
    message: "stop_signal 'SIGNOPE' is not a known signal",
  });
  t.throws(() => spec({ stop_timeout: 'soon' }), {
    message: 'stop_timeout must be a number of seconds ≥ 0',
  });
  t.throws(() => spec({ env: { A: { nested: 1 } } }), { message: 'env.A must be a string' });
  t.throws(() => spec({ env: { A: '{env}' } }), {
    message: /placeholder \{env\} in env.A/,
  });
  t.throws(() => spec({ restart_policy: { factor: 0.5 } }), {
    message: 'restart_policy.factor must be a number ≥ 1',
  });
  t.throws(() => spec({ command: undefined }), { message: 'the block has no command' });
});

test('log files: log_file relative to the data dir, else logs/<key>[_<instance>].log', (t) => {
  const list = entries({
    solo: { process_name: 'Solo', command: ['x'], log_file: 'custom/solo.log' },
    abs: { process_name: 'Abs', command: ['x'], log_file: '/var/log/abs.log' },
    sonarr: { instances: { 'Anime 4K': { process_name: 'Sonarr Anime', command: ['x'] } } },
  });
  t.deepEqual(
    list.map((entry) => logFilePath(entry, '/data')),
    ['/data/custom/solo.log', '/var/log/abs.log', '/data/logs/sonarr_Anime_4K.log'],
  );
});
