/**
 * Instructions of adopting boots, builds alternated: the steady measure behind the boot figures
 * of docs/adoption.md ("Instruction counts of whole boots, and the code cache's content").
 *
 * `node dist/bench/boot-instructions.js [--boots N] [--to listen|answer] MAIN.js [MAIN.js …]`,
 * each MAIN.js a build's `dist/host/main.js` (its tree needs `package.json` and `node_modules`
 * beside `dist/`). One from-scratch host of the first build starts the adoption bench's stack
 * (50 sleepers and a printer) and is SIGKILLed; then every build boots N times in turn on that data
 * dir under `perf stat -e instructions:u` (user space, all threads) and exits, crash-like, at its
 * listening line or at its first answer listing all 51 running (bench/boot-exit-hook.cts), so
 * the processes stay for the next boot. Before that, each build writes its code cache with a
 * from-scratch boot of its own, into a cache folder of this run's: which boot wrote a build's
 * cache moves the count by ~30 M. Needs Linux `perf` and `perf_event_paranoid` ≤ 2. One build's
 * boots vary by ±3–5 M; a change is one that moves the median by more.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { SAVE_DELAY_MS } from '../host/bundle-loader.cjs';
import { startHost, type RunningHostProcess } from '../test/helpers/start-host.js';
import { config, listedUntil } from './adoption.bench.js';
import { median } from './lib/stats.js';

const PROCESSES = 50;
const HOOK = join(dirname(fileURLToPath(import.meta.url)), 'boot-exit-hook.cjs');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { boots: { type: 'string', default: '6' }, to: { type: 'string', default: 'listen' } },
});
const boots = Number(values.boots);
if (positionals.length === 0 || !Number.isInteger(boots) || boots < 1)
  throw new Error(
    'usage: boot-instructions.js [--boots N] [--to listen|answer] MAIN.js [MAIN.js …]',
  );
if (values.to !== 'listen' && values.to !== 'answer')
  throw new Error(`--to is listen or answer, not ${values.to}`);

/** Each build's own supervisor plugin: another build's path would load it unbundled. */
const pluginOf = (main: string): string =>
  join(dirname(main), '..', 'plugins', 'supervisor', 'index.js');

const cacheHome = mkdtempSync(join(tmpdir(), 'stackd-boot-instructions-'));
const env = { STACKD_VALIDATE_RESPONSES: '0', XDG_CACHE_HOME: cacheHome };
const allRunning = (list: { status: string }[]): boolean =>
  list.length > PROCESSES && list.every((entry) => entry.status === 'running');

/** A host of build `main` on the bench's stack: a new one, or the one at `stack`'s paths. */
async function bootOn(
  main: string,
  stack: { configPath: string; dataDir: string } | undefined,
): Promise<RunningHostProcess> {
  const where = stack ?? { config: config(PROCESSES) };
  const host = await startHost({
    ...where,
    plugins: [pluginOf(main)],
    env,
    mainJs: main,
    bootTimeoutMs: 60_000,
  });
  await listedUntil(host, allRunning);
  return host;
}

/** A from-scratch boot of `main`, kept up until it saved its code cache, then stopped whole. */
async function warmCache(main: string): Promise<void> {
  const host = await bootOn(main, undefined);
  await sleep(2 * SAVE_DELAY_MS);
  await host.stop();
}

/** One adopting boot under perf stat: its instructions in millions. */
function countedBoot(main: string, configPath: string, dataDir: string): number {
  const out = join(cacheHome, 'perf-stat.txt');
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, STACKD_BENCH_EXIT_AT: values.to };
  // Every Node start pays for the certificates it names (docs/performance.md).
  delete childEnv.NODE_EXTRA_CA_CERTS;
  const host = [main, '--config', configPath, '--data-dir', dataDir, '--port', '0'];
  execFileSync(
    'perf',
    [
      'stat',
      '-x,',
      '-e',
      'instructions:u',
      '-o',
      out,
      '--',
      process.execPath,
      '--require',
      HOOK,
    ].concat(host, '--plugins', pluginOf(main)),
    // stdout is a pipe: the hook watches the listening line written to it.
    { env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = /^(\d+),,instructions/m.exec(readFileSync(out, 'utf8'));
  if (line?.[1] === undefined) throw new Error(`perf stat wrote no instruction count to ${out}`);
  return Number(line[1]) / 1e6;
}

try {
  for (const main of positionals) await warmCache(main);
  const first = positionals[0] as string;
  const stack = await bootOn(first, undefined);
  await stack.stop('SIGKILL');
  const configPath = stack.configPath as string;
  const counts = new Map(positionals.map((main) => [main, [] as number[]]));
  for (let round = 0; round < boots; round += 1)
    for (const main of positionals) {
      await sleep(300);
      counts.get(main)?.push(countedBoot(main, configPath, stack.dataDir));
    }
  const point = values.to === 'answer' ? 'first answer' : 'listening line';
  for (const [main, list] of counts) {
    const each = list.map((value) => value.toFixed(0)).join(' ');
    process.stdout.write(`${main}: ${median(list).toFixed(1)} M to the ${point} (${each})\n`);
  }
  // The stack's processes end with a host that stops them.
  const last = await bootOn(first, { configPath, dataDir: stack.dataDir });
  await last.stop();
} finally {
  rmSync(cacheHome, { recursive: true, force: true });
}
