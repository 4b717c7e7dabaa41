/**
 * The process table from /proc (Linux): pid, parent, process group and state of every process.
 * Used to see whether a process group still has live members (zombies do not count: where no
 * init reaps orphans they linger, dead, forever) and to list a process's descendants.
 */
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

/** One row of the process table. */
export interface ProcInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  /** One-letter state: R, S, D, Z (zombie), X (dead), T, … */
  readonly state: string;
  /** Start time in clock ticks since boot: with the pid, it names one process for good. */
  readonly startTicks: string;
}

/**
 * The fields of a `/proc/<pid>/stat` line after the command name (which may hold spaces and
 * parentheses): index 0 is the state, field N of proc(5) is index N - 3.
 */
export function statFields(line: string | undefined): string[] | undefined {
  if (line === undefined) return undefined;
  const close = line.lastIndexOf(')');
  return close < 0 ? undefined : line.slice(close + 2).split(' ');
}

/** Parse one `/proc/<pid>/stat` line; the command name may hold spaces and parentheses. */
export function parseStatLine(line: string): ProcInfo | undefined {
  const fields = statFields(line);
  if (fields === undefined) return undefined;
  const pid = Number(line.slice(0, line.indexOf(' ')));
  // After the command: state is field 3 of the man page, so starttime (field 22) is index 19.
  const [state, ppid, pgrp] = fields;
  const startTicks = fields[19];
  if (state === undefined || ppid === undefined || pgrp === undefined || startTicks === undefined)
    return undefined;
  return { pid, ppid: Number(ppid), pgrp: Number(pgrp), state, startTicks };
}

/** True for a process that has exited (a zombie waiting to be reaped, or dead). */
export function isDead(info: ProcInfo): boolean {
  return info.state === 'Z' || info.state === 'X';
}

const statBuffer = Buffer.alloc(4096);

/** One `/proc/<pid>/stat` line, read synchronously into a reused buffer; undefined when gone. */
export function readStatLine(pid: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/stat`, 'r');
    return readStatFd(fd);
  } catch {
    return undefined; // exited while we looked
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The stat line behind an open `/proc/<pid>/stat` descriptor (read from offset 0 each time, so
 * one descriptor serves every later reading). Throws once the process is gone.
 */
export function readStatFd(fd: number): string {
  const length = readSync(fd, statBuffer, 0, statBuffer.length, 0);
  if (length === 0) throw new Error('process gone');
  return statBuffer.toString('latin1', 0, length);
}

/**
 * The numeric fields of the stat line behind `fd`, parsed in place from the read buffer (no
 * string is made): `fields[i]` is index i of {@link statFields} for i from 1 to `fields.length`
 * - 1 (index 0, the one-letter state, is left alone). Throws once the process is gone. With a
 * thousand processes per metrics tick, splitting each line into fifty strings was most of what
 * a tick allocated.
 */
export function readStatNumbers(fd: number, fields: Float64Array): void {
  const length = readSync(fd, statBuffer, 0, statBuffer.length, 0);
  if (length === 0) throw new Error('process gone');
  const close = statBuffer.lastIndexOf(0x29, length - 1); // ')'
  if (close < 0) throw new Error('not a stat line');
  let index = 0;
  let value = 0;
  let negative = false;
  // After ") ": the state, then one space before each further field.
  for (let at = close + 2; at < length && index < fields.length; at += 1) {
    const byte = statBuffer[at] ?? 0x20;
    if (byte === 0x20 || byte === 0x0a) {
      if (index > 0) fields[index] = negative ? -value : value;
      index += 1;
      value = 0;
      negative = false;
    } else if (byte === 0x2d) negative = true;
    else if (byte >= 0x30 && byte <= 0x39) value = value * 10 + byte - 0x30;
  }
  if (index < fields.length) throw new Error('short stat line');
}

let procMounted: boolean | undefined;

/** Whether /proc can be read here (Linux with procfs mounted); checked once. */
export function procAvailable(): boolean {
  if (procMounted === undefined) {
    try {
      readdirSync('/proc/self');
      procMounted = true;
    } catch {
      procMounted = false;
    }
  }
  return procMounted;
}

/** One process's row, or undefined when it is gone. */
export function readProcess(pid: number): ProcInfo | undefined {
  const line = readStatLine(String(pid));
  return line === undefined ? undefined : parseStatLine(line);
}

/**
 * Every process, or null where /proc is not available. The reads are synchronous on purpose:
 * /proc files are generated in memory, and ~150 thread-pool round trips per scan cost several
 * times the CPU of reading them directly (measured: the idle host's largest cost).
 */
export function readProcTable(): Promise<ProcInfo[] | null> {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return Promise.resolve(null);
  }
  const rows: ProcInfo[] = [];
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue; // pids are digits
    const line = readStatLine(name);
    const row = line === undefined ? undefined : parseStatLine(line);
    if (row !== undefined) rows.push(row);
  }
  return Promise.resolve(rows);
}

/**
 * For each root: its live pid, its live descendants and the live members of its process group
 * (sorted), indexing the table once for all roots.
 */
export function liveTrees(
  table: readonly ProcInfo[],
  roots: readonly number[],
): Map<number, number[]> {
  const children = new Map<number, number[]>();
  const groups = new Map<number, number[]>();
  const live = new Set<number>();
  for (const row of table) {
    if (isDead(row)) continue;
    live.add(row.pid);
    append(children, row.ppid, row.pid);
    append(groups, row.pgrp, row.pid);
  }
  const trees = new Map<number, number[]>();
  for (const root of roots) {
    const found = new Set<number>();
    if (live.has(root)) found.add(root);
    const queue = [...(children.get(root) ?? [])];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      if (found.has(next)) continue;
      found.add(next);
      queue.push(...(children.get(next) ?? []));
    }
    for (const member of groups.get(root) ?? []) found.add(member);
    trees.set(
      root,
      [...found].sort((a, b) => a - b),
    );
  }
  return trees;
}

function append(index: Map<number, number[]>, key: number, pid: number): void {
  const list = index.get(key);
  if (list === undefined) index.set(key, [pid]);
  else list.push(pid);
}
