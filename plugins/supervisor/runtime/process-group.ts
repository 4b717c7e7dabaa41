/**
 * Signals to a whole process group (docs/decisions.md §13): every child is launched as the leader of its
 * own group, so its grandchildren are reached too. Stop = the graceful signal to the group, wait
 * for the leader and the group to be gone, then SIGKILL the group.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isDead, procAvailable, readProcess, readProcTable } from './proc-table.js';

// Polls start fast (most processes exit at once) and slow down: a scan of /proc costs ~13 ms.
const FIRST_POLL_MS = 25;
const MAX_POLL_MS = 500;
const KILL_WAIT_MS = 5_000;

function safeGroup(pgid: number): boolean {
  // Never signal init's group, our own process, or a bogus id.
  return Number.isInteger(pgid) && pgid > 1 && pgid !== process.pid;
}

/**
 * Whether a process with this pid exists, asked of the kernel with signal 0 (no /proc file):
 * `ours` when this host may signal it, `foreign` when it exists but belongs to another user (so
 * it is not a process this host launched), `gone` when there is none.
 */
export function pidPresence(pid: number): 'ours' | 'foreign' | 'gone' {
  try {
    process.kill(pid, 0);
    return 'ours';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? 'foreign' : 'gone';
  }
}

/** Send `signal` to every member of group `pgid`; false when the group does not exist. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  if (!safeGroup(pgid)) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while the group has a member that has not exited (zombies do not count). */
export async function groupAlive(pgid: number): Promise<boolean> {
  if (!safeGroup(pgid)) return false;
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  const table = await readProcTable();
  if (table === null) return true;
  return table.some((row) => row.pgrp === pgid && !isDead(row));
}

/**
 * Poll until the leader exited and the group is gone; false when `timeoutMs` passed first or
 * `cutShort` was aborted.
 */
export async function waitGroupGone(
  pgid: number,
  leaderExited: () => boolean,
  timeoutMs: number,
  cutShort?: AbortSignal,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let pause = FIRST_POLL_MS;
  for (;;) {
    if (leaderExited() && !(await groupAlive(pgid))) return true;
    if (Date.now() >= deadline || cutShort?.aborted === true) return false;
    // Woken by cutShort: the host's stop budget must turn into SIGKILL at once, not a poll later.
    await pauseFor(Math.min(pause, Math.max(1, deadline - Date.now())), cutShort);
    pause = Math.min(MAX_POLL_MS, pause * 1.5);
  }
}

/** How a group ended. */
export interface TerminationResult {
  /** SIGKILL was needed (the group outlived the grace time). */
  readonly killed: boolean;
  /** Something survived even SIGKILL (should not happen; logged by the caller). */
  readonly survived: boolean;
}

/**
 * Graceful signal to the group, up to `graceMs` for the leader and the group to be gone, then
 * SIGKILL and up to 5 s more. `abortGrace` cuts the grace short (the host's stop budget).
 */
export async function terminateGroup(
  pgid: number,
  signal: NodeJS.Signals,
  graceMs: number,
  leaderExited: () => boolean,
  abortGrace?: AbortSignal,
): Promise<TerminationResult> {
  signalGroup(pgid, signal);
  const graceful = await waitGroupGone(pgid, leaderExited, graceMs, abortGrace);
  if (graceful) return { killed: false, survived: false };
  signalGroup(pgid, 'SIGKILL');
  const gone = await waitGroupGone(pgid, leaderExited, KILL_WAIT_MS);
  return { killed: true, survived: !gone };
}

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  if (!safeGroup(pid)) return;
  try {
    process.kill(pid, signal);
  } catch {
    /* already gone */
  }
}

// Each pid's own stat file, not the whole table: 50 concurrent stops polling a table of every
// process on the machine made most of a restart wave's garbage.
function stillRunning(pids: readonly number[]): number[] {
  if (!procAvailable()) return [...pids];
  return pids.filter((pid) => {
    const row = readProcess(pid);
    return row !== undefined && !isDead(row);
  });
}

/**
 * End a set of processes that are not (or no longer) our children: `signal` to each (and to the
 * group each leads), up to `graceMs` for them to go, then SIGKILL. Resolves with the pids that
 * survived even SIGKILL. `cutShort` ends the grace early.
 */
export async function terminateProcesses(
  pids: readonly number[],
  signal: NodeJS.Signals,
  graceMs: number,
  cutShort?: AbortSignal,
): Promise<number[]> {
  const send = (to: NodeJS.Signals, targets: readonly number[]): void => {
    for (const pid of targets) {
      signalGroup(pid, to);
      signalProcess(pid, to);
    }
  };
  const waitGone = async (targets: readonly number[], ms: number, cut?: AbortSignal) => {
    const deadline = Date.now() + ms;
    let pause = FIRST_POLL_MS;
    let left = stillRunning(targets);
    while (left.length > 0 && Date.now() < deadline && cut?.aborted !== true) {
      await pauseFor(Math.min(pause, Math.max(1, deadline - Date.now())), cut);
      pause = Math.min(MAX_POLL_MS, pause * 1.5);
      left = stillRunning(left);
    }
    return left;
  };
  send(signal, pids);
  const left = await waitGone(pids, graceMs, cutShort);
  if (left.length === 0) return [];
  send('SIGKILL', left);
  return waitGone(left, KILL_WAIT_MS);
}

/** Sleep, waking early when `signal` aborts. */
async function pauseFor(ms: number, signal?: AbortSignal): Promise<void> {
  await sleep(ms, undefined, signal === undefined ? undefined : { signal }).catch(() => undefined);
}
