/**
 * An upgrade: a host built from an older commit runs the stack, hands over (SIGUSR2), and this
 * build starts on the same data dir and adopts every process — same pids and start times,
 * restarts kept, the grandchild untouched, the output of the gap in the log once and in order.
 * The older host is the first commit that shipped adoption (759bc11): the oldest launch records
 * and FIFO layout this build must still understand. A copy of this build under another version
 * string would only prove that a second install adopts its own records.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { MAIN_JS, startHost, tempDir, writeConfig } from '../../helpers/start-host.js';
import { readProcess } from '../../../plugins/supervisor/runtime/proc-table.js';
import { olderHost } from './older-host.js';
import {
  fixtureBlock,
  isAlive,
  program,
  readPid,
  serviceStatus,
  SUPERVISOR_PLUGIN,
} from './support.js';

const OLDER_COMMIT = '759bc11';
/** The checkout these compiled tests belong to (`<root>/dist/test/e2e/supervisor`). */
const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const PRINTER = "let n = 0; setInterval(() => console.log('line ' + n++), 20);";
const NAMES = ['Base', 'Tree', 'Printer'];

interface Adopted {
  readonly status: string;
  readonly pid?: number;
  readonly restarts: number;
  readonly uptime_s?: number;
  readonly adopted?: boolean;
}

async function printed(url: string): Promise<number[]> {
  const { body } = await request<{ log: string }>(url, '/logs?process_name=Printer');
  return body.log
    .split('\n')
    .filter((line) => line.startsWith('line '))
    .map((line) => Number(line.slice(5)));
}

/** A shallow clone or an unpacked tarball has no older commit to build: the test says so and skips. */
function hasCommit(commit: string): boolean {
  try {
    execFileSync('git', ['-C', REPOSITORY, 'cat-file', '-e', `${commit}^{commit}`], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

const upgradeTest = hasCommit(OLDER_COMMIT) ? test : test.skip;

upgradeTest(
  'a host built from an older commit hands over and this build adopts its processes',
  async (t) => {
    // Building the older host the first time takes minutes on a loaded machine.
    t.timeout(15 * 60_000);
    const olderMain = await olderHost(OLDER_COMMIT);
    const launchBook = join('plugins', 'supervisor', 'runtime', 'launch-book.js');
    t.not(
      readFileSync(join(dirname(olderMain), '..', launchBook), 'utf8'),
      readFileSync(join(dirname(MAIN_JS), '..', launchBook), 'utf8'),
      'the older host really runs other code',
    );
    t.timeout(3 * 60_000);
    const dir = tempDir('stackd-upgrade-');
    const configPath = writeConfig({
      stackd: {
        api_service: { enabled: true, process_name: 'stackd API', log_level: 'INFO' },
        supervisor: { start_check_ms: 300 },
      },
      base: fixtureBlock('Base', program('long-running')),
      tree: fixtureBlock('Tree', program('spawns-grandchild'), ['--pid-file', join(dir, 'g')]),
      printer: { enabled: true, process_name: 'Printer', command: ['node', '-e', PRINTER] },
    });
    const boot = { bootTimeoutMs: 90_000 }; // a loaded machine took over the default 20 s
    const older = await startHost({
      configPath,
      mainJs: olderMain,
      plugins: ['supervisor'],
      ...boot,
    });
    t.teardown(async () => {
      if (older.child.exitCode === null) await older.stop();
    });
    const before = await eventually(
      async () => {
        const states = await Promise.all(NAMES.map((name) => serviceStatus(older, name)));
        return states.every((state) => state.status === 'running') ? states : undefined;
      },
      { what: 'the stack running under the older host', timeoutMs: 30_000 },
    );
    const grandchild = await eventually(() => readPid(join(dir, 'g')));
    const ticks = before.map((state) => readProcess(state.pid as number)?.startTicks);
    const lastBefore = (await printed(older.url)).at(-1) ?? 0;

    t.is(await older.stop('SIGUSR2'), 0, 'the older host hands over');
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // Printer prints on meanwhile
    const newer = await startHost({
      configPath,
      dataDir: older.dataDir,
      plugins: [SUPERVISOR_PLUGIN],
      ...boot,
    });
    t.teardown(async () => {
      if (newer.child.exitCode === null) await newer.stop();
    });
    const after = await eventually(
      async () => {
        const states = await Promise.all(
          NAMES.map(async (name) => (await serviceStatus(newer, name)) as Adopted),
        );
        return states.every((state) => state.adopted === true) ? states : undefined;
      },
      { what: "this build adopting the older host's processes", timeoutMs: 30_000 },
    );
    after.forEach((state, index) => {
      const was = before[index] as Adopted;
      t.is(state.status, 'running', NAMES[index]);
      t.is(state.pid, was.pid, `${NAMES[index]} keeps its pid`);
      t.is(state.restarts, was.restarts, `${NAMES[index]} keeps its restarts`);
      t.true((state.uptime_s ?? 0) >= (was.uptime_s ?? Infinity), `${NAMES[index]} uptime goes on`);
    });
    t.deepEqual(
      before.map((state) => readProcess(state.pid as number)?.startTicks),
      ticks,
      'the same processes (start times)',
    );
    t.true(isAlive(grandchild), 'the grandchild untouched');
    const lines = await eventually(
      async () => {
        const found = await printed(newer.url);
        return (found.at(-1) ?? 0) > lastBefore + 40 ? found : undefined;
      },
      { what: 'the output of the gap in the log' },
    );
    t.true(
      lines.every((value, index) => value === index),
      `${lines.length} lines once and in order across both hosts`,
    );

    // This build's stop reaches what the older one launched, the grandchild too.
    t.is(await newer.stop(), 0);
    for (const state of before) t.false(isAlive(state.pid as number));
    await eventually(() => !isAlive(grandchild), { what: 'the grandchild stopped' });
  },
);
