/**
 * The supervisor's Prometheus series, one set per supervised process (label `process`): up, the
 * state as a stateset, restarts, last exit code, start time, CPU seconds, resident memory and
 * open descriptors of the whole process tree, and log bytes written. Refreshed at each scrape
 * from the live states and one read of /proc for every tree.
 */
import { readdirSync, statSync } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import type { Exposition, ProcessState, ProcessStatus } from '../../../sdk/index.js';
import { ProcUsageReader, type ProcUsage } from '../runtime/proc-usage.js';
import type { PidTrees } from '../supervision/supervisor.js';

/** Where a process comes from in the configuration. */
export interface ProcessIdentity {
  readonly process_name: string;
  readonly config_key: string;
  readonly instance_name: string | null;
}

/** What the series read from the supervisor. */
export interface ExpositionSource {
  states(): ProcessState[];
  /** Every configured process; the same array until the configuration changes. */
  identities(): readonly ProcessIdentity[];
  pidTrees(): Promise<PidTrees>;
  logBytes(): Map<string, number>;
}

const STATES: readonly ProcessStatus[] = [
  'running',
  'starting',
  'stopping',
  'stopped',
  'crashed',
  'backoff',
];

/** Totals kept monotonic across scrapes: counts that restart from 0 are carried over. */
class MonotonicTotals {
  private readonly seen = new Map<string, { raw: number; offset: number; key: unknown }>();

  /** `raw` for `name`; a drop adds the previous raw value unless `key` (the pid) changed. */
  total(name: string, raw: number, key: unknown = null, resetOnNewKey = false): number {
    const before = this.seen.get(name);
    let offset = before?.offset ?? 0;
    if (before !== undefined) {
      if (resetOnNewKey && before.key !== key) offset = 0;
      else if (raw < before.raw) offset += before.raw;
    }
    this.seen.set(name, { raw, offset, key });
    return offset + raw;
  }

  /** The highest total so far, for a process whose tree is gone for now. */
  last(name: string): number | undefined {
    const before = this.seen.get(name);
    return before === undefined ? undefined : before.offset + before.raw;
  }
}

/**
 * Open descriptors of `pids`. Since Linux 6.2 the size of `/proc/<pid>/fd` is its number of open
 * descriptors: one stat instead of opening and listing the directory (with 1,000 processes the
 * listing was a fifth of a scrape). Older kernels report 0 there, and then the directory is listed.
 */
function openDescriptors(pids: readonly number[]): number {
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

function declareFamilies(exposition: Exposition) {
  const p = ['process'] as const;
  const up = exposition.gauge({
    name: 'stackd_process_up',
    help: 'Whether the process runs (1) or not (0)',
    labelNames: p,
  });
  const state = exposition.gauge<'process' | 'state'>({
    name: 'stackd_process_state',
    help: 'Stateset: 1 for the state the process is in, 0 for the others',
    labelNames: ['process', 'state'],
  });
  const restarts = exposition.counter({
    name: 'stackd_process_restarts_total',
    help: 'Automatic restarts after a crash',
    labelNames: p,
  });
  const exitCode = exposition.gauge({
    name: 'stackd_process_last_exit_code',
    help: 'Exit code of the last exit (128 + signal for a signal death)',
    labelNames: p,
  });
  const started = exposition.gauge({
    name: 'stackd_process_start_time_seconds',
    help: 'When the process last started (Unix seconds)',
    labelNames: p,
  });
  const cpu = exposition.counter({
    name: 'stackd_process_cpu_seconds_total',
    help: 'CPU time of the whole process tree; starts again when the process restarts',
    labelNames: p,
  });
  const memory = exposition.gauge({
    name: 'stackd_process_resident_memory_bytes',
    help: 'Resident memory of the whole process tree',
    labelNames: p,
  });
  const fds = exposition.gauge({
    name: 'stackd_process_open_fds',
    help: 'Open file descriptors of the whole process tree',
    labelNames: p,
  });
  const logBytes = exposition.counter({
    name: 'stackd_process_log_bytes_total',
    help: 'Bytes of output written to the process log files',
    labelNames: p,
  });
  const info = exposition.gauge<'process' | 'service' | 'instance'>({
    name: 'stackd_process_info',
    help: 'Always 1; labels name the service block and instance of the process',
    labelNames: ['process', 'service', 'instance'],
  });
  return { up, state, restarts, exitCode, started, cpu, memory, fds, logBytes, info };
}

type Families = ReturnType<typeof declareFamilies>;

/**
 * Processes refreshed in one turn of the event loop: with a thousand, one pass over every /proc
 * file and series blocked the loop for tens of milliseconds.
 */
const PROCESSES_PER_TURN = 100;

type Totals = { readonly restarts: MonotonicTotals; readonly cpu: MonotonicTotals };

/** Declare the families (during register) and refresh them before each scrape. */
export function declareProcessSeries(exposition: Exposition, source: ExpositionSource): void {
  const families = declareFamilies(exposition);
  // One reader per slice of processes: a reader keeps open the stat files of the pids it read
  // last and closes the others, so each slice keeps its own.
  const readers: ProcUsageReader[] = [];
  // One table per counter, keyed by process name.
  const totals: Totals = { restarts: new MonotonicTotals(), cpu: new MonotonicTotals() };
  exposition.beforeScrape(() => refresh(families, source, readers, totals));
}

async function refresh(
  families: Families,
  source: ExpositionSource,
  readers: ProcUsageReader[],
  totals: Totals,
): Promise<void> {
  const { up, state, exitCode, started, memory, fds, info } = families;
  const states = source.states();
  const trees = await source.pidTrees();
  const written = source.logBytes();
  for (const family of [up, state, exitCode, started, memory, fds, info]) family.reset();
  let slices = 0;
  for (let first = 0; first < states.length; first += PROCESSES_PER_TURN) {
    if (first > 0) await setImmediate();
    const reader = (readers[slices] ??= new ProcUsageReader());
    slices += 1;
    const slice = states.slice(first, first + PROCESSES_PER_TURN);
    refreshSlice(families, { states: slice, trees, written, reader, totals });
  }
  for (const unused of readers.splice(slices)) unused.close();
  for (const d of source.identities())
    info.set(
      { process: d.process_name, service: d.config_key, instance: d.instance_name ?? '' },
      1,
    );
}

interface Slice {
  readonly states: readonly ProcessState[];
  readonly trees: PidTrees;
  readonly written: ReadonlyMap<string, number>;
  readonly reader: ProcUsageReader;
  readonly totals: Totals;
}

function refreshSlice(families: Families, slice: Slice): void {
  const { up, state, restarts, exitCode, started, cpu, memory, fds, logBytes } = families;
  const { states, trees, written, reader, totals } = slice;
  const treeOf = (s: ProcessState): readonly number[] =>
    s.pid === null ? [] : (trees.get(s.process_name) ?? [s.pid]);
  const usage = reader.read([...new Set(states.flatMap(treeOf))]) ?? new Map<number, ProcUsage>();
  for (const s of states) {
    const process = s.process_name;
    const tree = treeOf(s);
    up.set({ process }, s.status === 'running' ? 1 : 0);
    for (const name of STATES) state.set({ process, state: name }, s.status === name ? 1 : 0);
    restarts.setTotal({ process }, totals.restarts.total(process, s.restarts));
    if (s.exit_code !== null) exitCode.set({ process }, s.exit_code);
    if (s.started_at !== null) started.set({ process }, s.started_at / 1000);
    let rss = 0;
    let cpuSeconds = 0;
    for (const pid of tree) {
      const one = usage.get(pid);
      rss += one?.memory ?? 0;
      cpuSeconds += one?.cpuSeconds ?? 0;
    }
    const cpuTotal =
      s.pid === null
        ? (totals.cpu.last(process) ?? 0)
        : totals.cpu.total(process, cpuSeconds, s.pid, true);
    cpu.setTotal({ process }, cpuTotal);
    memory.set({ process }, rss);
    fds.set({ process }, openDescriptors(tree));
    logBytes.setTotal({ process }, written.get(process) ?? 0);
  }
}
