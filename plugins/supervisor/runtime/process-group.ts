/**
 * Signals to a whole process group (DECISIONS #13): every child is launched as the leader of its
 * own group, so its grandchildren are reached too. Stop = the graceful signal to the group, wait
 * for the leader and the group to be gone, then SIGKILL the group.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isDead, readProcTable } from './proc-table.js';

// Polls start fast (most processes exit at once) and slow down: a scan of /proc costs ~13 ms.
const FIRST_POLL_MS = 25;
const MAX_POLL_MS = 500;
const KILL_WAIT_MS = 5_000;

function safeGroup(pgid: number): boolean {
  // Never signal init's group, our own process, or a bogus id.
  return Number.isInteger(pgid) && pgid > 1 && pgid !== process.pid;
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
    await sleep(Math.min(pause, Math.max(1, deadline - Date.now())));
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
