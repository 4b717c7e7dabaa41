/**
 * Every process a benchmark starts is registered here by PID and stopped by PID at the end, on
 * success and on error alike (SIGTERM, then SIGKILL after a grace period).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from './proc-sample.js';

const registered = new Map<number, string>();

/** Remember `pid` (described by `label`) for {@link stopAll}. */
export function track(pid: number | undefined, label: string): void {
  if (pid !== undefined) registered.set(pid, label);
}

/** Forget a PID that was stopped properly. */
export function untrack(pid: number | undefined): void {
  if (pid !== undefined) registered.delete(pid);
}

/** SIGTERM `pids`, wait up to `graceMs` for them to go, SIGKILL the rest. */
export async function stopPids(pids: readonly number[], graceMs = 3000): Promise<void> {
  const signal = (pid: number, name: NodeJS.Signals): void => {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  };
  const alive = pids.filter(isAlive);
  for (const pid of alive) signal(pid, 'SIGTERM');
  const deadline = performance.now() + graceMs;
  while (alive.some(isAlive) && performance.now() < deadline) await sleep(50);
  for (const pid of alive.filter(isAlive)) signal(pid, 'SIGKILL');
}

/** Stop every registered process still alive; returns the labels of those that were. */
export async function stopAll(): Promise<string[]> {
  const leftovers = [...registered.entries()].filter(([pid]) => isAlive(pid));
  await stopPids(leftovers.map(([pid]) => pid));
  registered.clear();
  return leftovers.map(([pid, label]) => `${label} (${pid})`);
}
