/**
 * Usage of every supervised process tree (CPU seconds, resident memory, open descriptors) from
 * one pass over /proc, shared by the supervisor's two readers of it: the `processes` metrics
 * collector and the Prometheus series. A scrape serves the reading the last metrics tick (or an
 * earlier scrape) made when it is recent and was made for the very trees the scrape sees, instead
 * of reading every /proc file again a moment later: with 1,000 processes that second pass was a
 * third of a scrape's CPU.
 */
import { readdirSync, statSync } from 'node:fs';
import { TurnBudget, type ProcessState } from '../../../sdk/index.js';
import type { ProcUsage, ProcUsageReader } from '../runtime/proc-usage.js';
import type { PidTrees } from '../supervision/tree-scan.js';

/** One process tree's usage. */
export interface TreeUsage {
  /** CPU time the tree's live pids used so far (seconds). */
  readonly cpuSeconds: number;
  /** Resident memory of the tree (bytes). */
  readonly rss: number;
  /** Open descriptors of the tree. */
  readonly fds: number;
}

/** Usage of every tree at one moment. */
export interface TreeReading {
  /** When /proc was read (`Date.now()`). */
  readonly at: number;
  /** The trees it was read for: the same object while no process started or stopped. */
  readonly trees: PidTrees;
  /** Usage by process name. */
  readonly usage: ReadonlyMap<string, TreeUsage>;
}

/**
 * How long after a scrape the metrics ticks keep counting descriptors for the next one: longer
 * than any scrape interval worth serving (Prometheus's default is one minute).
 */
const DESCRIPTORS_WANTED_MS = 5 * 60_000;

/** The latest reading, published by whoever read /proc, taken by a scrape while it is recent. */
export class TreeReadings {
  private latest: TreeReading | undefined;
  /** When the newest reading kept or {@link passed} was made. */
  private latestAt = Number.NEGATIVE_INFINITY;
  private scrapedAt = Number.NEGATIVE_INFINITY;

  /** Keep `reading` unless a newer one is already kept. */
  publish(reading: TreeReading): void {
    if (reading.at < this.latestAt) return;
    this.latestAt = reading.at;
    this.latest = reading;
  }

  /**
   * /proc was read at `at` with nobody scraping lately, so no tree's sums were made (a thousand
   * of them a tick, for nothing): no older reading serves a scrape once a newer one exists.
   */
  passed(at: number): void {
    if (at < this.latestAt) return;
    this.latestAt = at;
    this.latest = undefined;
  }

  /**
   * The latest reading when it is at most `maxAgeMs` old and was read for `trees` (a process that
   * started since would be missing from it); else undefined. Marks that a scrape wants readings.
   */
  recent(trees: PidTrees, maxAgeMs: number): TreeReading | undefined {
    const now = Date.now();
    this.scrapedAt = now;
    const latest = this.latest;
    if (latest === undefined || latest.trees !== trees || now - latest.at > maxAgeMs)
      return undefined;
    return latest;
  }

  /** Whether a tick should make each tree's sums (descriptors included): someone scraped lately. */
  wantsDescriptors(): boolean {
    return Date.now() - this.scrapedAt <= DESCRIPTORS_WANTED_MS;
  }
}

/**
 * Open descriptors of `pids`. Since Linux 6.2 the size of `/proc/<pid>/fd` is its number of open
 * descriptors: one stat instead of opening and listing the directory (with 1,000 processes the
 * listing was a fifth of a scrape). Older kernels report 0 there, and then the directory is listed.
 */
export function openDescriptors(pids: readonly number[]): number {
  let count = 0;
  for (const pid of pids) {
    try {
      const size = statSync(`/proc/${pid}/fd`, { throwIfNoEntry: false })?.size ?? 0;
      count += size > 0 ? size : readdirSync(`/proc/${pid}/fd`).length;
    } catch {
      // Gone, or not ours to read: counted as none.
    }
  }
  return count;
}

/** The usage of one tree from the readings of its pids (pids gone meanwhile count as nothing). */
export function treeUsage(
  tree: readonly number[],
  usage: ReadonlyMap<number, ProcUsage>,
): TreeUsage {
  let rss = 0;
  let cpuSeconds = 0;
  for (const pid of tree) {
    const one = usage.get(pid);
    rss += one?.memory ?? 0;
    cpuSeconds += one?.cpuSeconds ?? 0;
  }
  return { cpuSeconds, rss, fds: openDescriptors(tree) };
}

/** The pids of `state`'s tree ([] without a pid; the root alone when no tree was found). */
export const treeOf = (state: ProcessState, trees: PidTrees): readonly number[] =>
  state.pid === null ? [] : (trees.get(state.process_name) ?? [state.pid]);

/** The usage of every pid of every tree, read at one moment. */
export interface PidsRead {
  /** When /proc was read (`Date.now()`). */
  readonly at: number;
  /** The pids of each state's tree, in the order of the states read. */
  readonly byState: readonly (readonly number[])[];
  readonly perPid: ReadonlyMap<number, ProcUsage>;
}

/**
 * The usage of every pid of every tree read now, over turns of the event loop (with a thousand
 * processes, one pass over every /proc file held it for tens of milliseconds); null without /proc.
 */
export async function readPids(
  states: readonly ProcessState[],
  trees: PidTrees,
  reader: ProcUsageReader,
): Promise<PidsRead | null> {
  const at = Date.now();
  const byState = states.map((state) => treeOf(state, trees));
  const unique = new Set<number>();
  for (const tree of byState) for (const pid of tree) unique.add(pid);
  // No pid to read: the reader keeps its files for when the processes are back.
  const perPid = unique.size === 0 ? new Map() : await reader.readInTurns([...unique]);
  return perPid === null ? null : { at, byState, perPid };
}

/** Every tree's usage from `read` (of the same `states` and `trees`), in turns of the loop. */
export async function treeReading(
  states: readonly ProcessState[],
  trees: PidTrees,
  read: PidsRead,
): Promise<TreeReading> {
  const usage = new Map<string, TreeUsage>();
  const turn = new TurnBudget();
  for (let index = 0; index < states.length; index += 1) {
    if (turn.spent()) await turn.next();
    usage.set(states[index]?.process_name ?? '', treeUsage(read.byState[index] ?? [], read.perPid));
  }
  return { at: read.at, trees, usage };
}

/** Every tree's usage read now (see {@link readPids}); null without /proc. */
export async function readTrees(
  states: readonly ProcessState[],
  trees: PidTrees,
  reader: ProcUsageReader,
): Promise<TreeReading | null> {
  const read = await readPids(states, trees, reader);
  return read === null ? null : treeReading(states, trees, read);
}
