import { join } from 'node:path';
import test from 'ava';
import { Type } from '@sinclair/typebox';
import {
  definePlugin,
  processSupervisorRef,
  type ProcessSupervisor,
  type Plugin,
  type ProcessState,
} from '../../sdk/index.js';
import { HELLO_PLUGIN_DIR } from '../helpers/fixture-paths.js';
import { createTestHost, override } from '../../testing/index.js';

/** A plugin that reports what the supervisor service tells it. */
const probe = definePlugin({
  name: 'probe',
  version: '1.0.0',
  apiVersion: 1,
  optionalDependsOn: ['supervisor'],
  register(ctx) {
    ctx.route({
      method: 'GET',
      path: '/probe/names',
      summary: 'process names as the supervisor service reports them',
      schema: { response: Type.Object({ names: Type.Array(Type.String()) }) },
      handler: () => ({
        names: (ctx.optional(processSupervisorRef)?.list() ?? []).map((p) => p.process_name),
      }),
    });
  },
});

function fakeSupervisor(names: readonly string[]): ProcessSupervisor {
  const stopped = (process_name: string): ProcessState => ({
    process_name,
    status: 'stopped',
    pid: null,
    exit_code: null,
    restarts: 0,
    started_at: null,
    reason: null,
  });
  return {
    list: () =>
      names.map((process_name) => ({
        process_name,
        config_key: process_name.toLowerCase(),
        instance_name: null,
        enabled: true,
        block: {},
      })),
    find: () => undefined,
    states: () => names.map(stopped),
    state: (name) => stopped(name),
    pidTree: () => Promise.resolve([]),
    logFile: () => null,
    start: (name) => Promise.resolve(stopped(name)),
    stop: (name) => Promise.resolve(stopped(name)),
    restart: (name) => Promise.resolve(stopped(name)),
    launch: (name) => Promise.resolve({ done: true, state: stopped(name) }),
    addStartPreparer: () => () => undefined,
  };
}

test('createTestHost serves a plugin object on a free port', async (t) => {
  const host = await createTestHost({ plugins: [probe] });
  try {
    t.regex(host.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${host.url}/probe/names`);
    t.is(response.status, 200);
    t.deepEqual(await response.json(), { names: [] });
  } finally {
    await host.stop();
  }
});

test('an override replaces the service a built-in plugin provides', async (t) => {
  const host = await createTestHost({
    plugins: ['supervisor', probe],
    config: { web: { process_name: 'Real Web', command: ['node', '-e', '0'], enabled: false } },
    overrides: [override(processSupervisorRef, fakeSupervisor(['Fake A', 'Fake B']))],
  });
  try {
    const response = await fetch(`${host.url}/api/probe/names`);
    t.deepEqual(await response.json(), { names: ['Fake A', 'Fake B'] });
    // The real supervisor still serves its own routes from the real configuration.
    const list = (await (await fetch(`${host.url}/process/processes`)).json()) as {
      processes: Array<{ process_name: string }>;
    };
    t.true(list.processes.some((entry) => entry.process_name === 'Real Web'));
  } finally {
    await host.stop();
  }
});

test('the example third-party package runs in a test host with its config slice', async (t) => {
  const module = (await import(join(HELLO_PLUGIN_DIR, 'dist', 'index.js'))) as { default: Plugin };
  const host = await createTestHost({
    plugins: [module.default],
    config: { stackd: { hello: { greeting: 'howdy' } } },
  });
  try {
    const response = await fetch(`${host.url}/hello/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'pat' }),
    });
    t.is(response.status, 200);
    t.is(((await response.json()) as { text: string }).text, 'howdy pat');
    const flags = (await (await fetch(`${host.url}/process/capabilities`)).json()) as Record<
      string,
      boolean
    >;
    t.true(flags.hello_world);
  } finally {
    await host.stop();
  }
});
