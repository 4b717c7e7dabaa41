/**
 * The bench's side of `loop-probe.ts`: start the probe in a host, run something, read the
 * event-loop delay the host saw meanwhile.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoopDelay } from './loop-probe.js';
import { track, untrack } from './cleanup.js';
import { waitFor } from './wait.js';

const PROBE = fileURLToPath(new URL('./loop-probe.js', import.meta.url));

/** Environment that preloads the probe into a host, and the folder it listens on. */
export function loopProbeEnv(): { readonly dir: string; readonly env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'stackd-loop-'));
  const inherited = process.env.NODE_OPTIONS ?? '';
  return {
    dir,
    env: {
      STACKD_BENCH_LOOP_DIR: dir,
      NODE_OPTIONS: `${inherited} --import=${PROBE}`.trim(),
    },
  };
}

let windows = 0;

/** The host's event-loop delay while `during` runs. */
export async function loopDelayDuring(
  dir: string,
  during: () => Promise<void>,
): Promise<LoopDelay> {
  windows += 1;
  const id = windows;
  const exists = (name: string) => () => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      return undefined;
    }
  };
  writeFileSync(join(dir, 'command'), `start ${id}`);
  await waitFor(exists(`started-${id}`), (text) => text !== undefined, 30_000);
  await during();
  writeFileSync(join(dir, 'command'), `stop ${id}`);
  const text = await waitFor(exists(`result-${id}.json`), (read) => read !== undefined, 30_000);
  return JSON.parse(text ?? '{}') as LoopDelay;
}

/** A bare node process carrying only the probe: what the machine alone does to a 1 ms timer. */
export interface BareProbe {
  readonly dir: string;
  stop(): void;
}

/** Start a bare probe process (an idle timer keeps it alive); stop it with `stop()`. */
export async function startBareProbe(): Promise<BareProbe> {
  const probe = loopProbeEnv();
  const child: ChildProcess = spawn(
    process.execPath,
    ['-e', 'setInterval(() => {}, 1e9); console.log("ready")'],
    { env: { ...process.env, ...probe.env }, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  track(child.pid, 'bare loop probe');
  // The preload runs before the script: once it prints, the probe watches its folder.
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`bare loop probe exited (${code})`)));
  });
  // A first short window warms it up.
  await loopDelayDuring(probe.dir, () => new Promise((resolve) => setTimeout(resolve, 100)));
  return {
    dir: probe.dir,
    stop: () => {
      child.kill();
      untrack(child.pid);
      rmSync(probe.dir, { recursive: true, force: true });
    },
  };
}
