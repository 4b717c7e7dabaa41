/**
 * The supervisor's Prometheus series, one set per supervised process (label `process`): up, the
 * state as a stateset, restarts, last exit code, start time, CPU seconds, resident memory and
 * open descriptors of the whole process tree, and log bytes written. Refreshed at each scrape
 * from the live states; the tree usage comes from the latest reading of /proc when it is recent
 * (a metrics tick's), else from one read of every tree made for the scrape.
 */
import type {
  Exposition,
  ExpositionCounterSeries,
  ExpositionGaugeSeries,
  ProcessState,
  ProcessStatus,
} from '../../../sdk/index.js';
import { TurnBudget } from '../../../sdk/index.js';
import { ProcUsageReader } from '../runtime/proc-usage.js';
import type { PidTrees } from '../supervision/tree-scan.js';
import { readTrees, type TreeReading, type TreeReadings, type TreeUsage } from './tree-usage.js';

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
    if (before === undefined) this.seen.set(name, { raw, offset, key });
    else {
      before.raw = raw;
      before.offset = offset;
      before.key = key;
    }
    return offset + raw;
  }

  /** The highest total so far, for a process whose tree is gone for now. */
  last(name: string): number | undefined {
    const before = this.seen.get(name);
    return before === undefined ? undefined : before.offset + before.raw;
  }
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
 * How old a reading of the trees a scrape may serve: samples a metrics tick old are what
 * Prometheus gets from any exporter that samples on its own clock (the exposition carries no
 * timestamps; the scrape's time stands for them), and the supervisor already lets the trees
 * themselves be this old.
 */
const READING_MAX_AGE_MS = 10_000;

type Totals = { readonly restarts: MonotonicTotals; readonly cpu: MonotonicTotals };

/** Declare the families (during register) and refresh them before each scrape. */
export function declareProcessSeries(
  exposition: Exposition,
  source: ExpositionSource,
  readings: TreeReadings,
): void {
  const families = declareFamilies(exposition);
  // Reads the trees when no recent reading is there (no metrics tick lately).
  const reader = new ProcUsageReader();
  // One table per counter, keyed by process name.
  const totals: Totals = { restarts: new MonotonicTotals(), cpu: new MonotonicTotals() };
  const bound = new BoundSeries(families);
  exposition.beforeScrape(async () => {
    const turn = new TurnBudget();
    const states = source.states();
    const trees = await source.pidTrees();
    const reading =
      readings.recent(trees, READING_MAX_AGE_MS) ??
      (await readTrees(states, trees, reader)) ??
      emptyReading(trees);
    readings.publish(reading);
    await refresh(families, source, { states, reading, totals, bound, turn });
  });
}

/** Where /proc is missing: every tree reads as empty. */
const emptyReading = (trees: PidTrees): TreeReading => ({
  at: Date.now(),
  trees,
  usage: new Map(),
});

/** The bound series of one process (label sets rendered once per configuration). */
interface ProcessSeries {
  readonly up: ExpositionGaugeSeries;
  readonly states: readonly ExpositionGaugeSeries[];
  readonly restarts: ExpositionCounterSeries;
  readonly exitCode: ExpositionGaugeSeries;
  readonly started: ExpositionGaugeSeries;
  readonly cpu: ExpositionCounterSeries;
  readonly memory: ExpositionGaugeSeries;
  readonly fds: ExpositionGaugeSeries;
  readonly logBytes: ExpositionCounterSeries;
}

function bindProcess(families: Families, process: string): ProcessSeries {
  const p = { process };
  return {
    up: families.up.labels(p),
    states: STATES.map((state) => families.state.labels({ process, state })),
    restarts: families.restarts.labels(p),
    exitCode: families.exitCode.labels(p),
    started: families.started.labels(p),
    cpu: families.cpu.labels(p),
    memory: families.memory.labels(p),
    fds: families.fds.labels(p),
    logBytes: families.logBytes.labels(p),
  };
}

/** Bound series by process name, bound again when the configuration changes. */
class BoundSeries {
  private identities: readonly ProcessIdentity[] | undefined;
  private byName = new Map<string, ProcessSeries>();
  private info: readonly ExpositionGaugeSeries[] = [];

  constructor(private readonly families: Families) {}

  /** The info series of every configured process (bound for `identities`). */
  infoOf(identities: readonly ProcessIdentity[]): readonly ExpositionGaugeSeries[] {
    if (identities !== this.identities) {
      this.identities = identities;
      this.byName = new Map();
      this.info = identities.map((d) =>
        this.families.info.labels({
          process: d.process_name,
          service: d.config_key,
          instance: d.instance_name ?? '',
        }),
      );
    }
    return this.info;
  }

  of(process: string): ProcessSeries {
    let series = this.byName.get(process);
    if (series === undefined) {
      series = bindProcess(this.families, process);
      this.byName.set(process, series);
    }
    return series;
  }
}

interface Refresh {
  readonly states: readonly ProcessState[];
  readonly reading: TreeReading;
  readonly totals: Totals;
  readonly bound: BoundSeries;
  /** The scrape's turn of the event loop, begun before the states were read. */
  readonly turn: TurnBudget;
}

async function refresh(
  families: Families,
  source: ExpositionSource,
  { states, reading, totals, bound, turn }: Refresh,
): Promise<void> {
  const { up, state, exitCode, started, memory, fds, info } = families;
  if (turn.spent()) await turn.next();
  const written = source.logBytes();
  const infos = bound.infoOf(source.identities());
  for (const family of [up, state, exitCode, started, memory, fds, info]) {
    if (turn.spent()) await turn.next();
    family.reset();
  }
  // A turn of the event loop at a time: a thousand processes are some 14,000 series.
  const readings = { usage: reading.usage, written, totals };
  for (const s of states) {
    if (turn.spent()) await turn.next();
    refreshProcess(bound.of(s.process_name), s, readings);
  }
  for (const series of infos) {
    if (turn.spent()) await turn.next();
    series.set(1);
  }
}

interface Readings {
  readonly usage: ReadonlyMap<string, TreeUsage>;
  readonly written: ReadonlyMap<string, number>;
  readonly totals: Totals;
}

function refreshProcess(series: ProcessSeries, s: ProcessState, readings: Readings): void {
  const { usage, written, totals } = readings;
  const process = s.process_name;
  const tree = s.pid === null ? undefined : usage.get(process);
  series.up.set(s.status === 'running' ? 1 : 0);
  for (let index = 0; index < STATES.length; index += 1)
    series.states[index]?.set(s.status === STATES[index] ? 1 : 0);
  series.restarts.setTotal(totals.restarts.total(process, s.restarts));
  if (s.exit_code !== null) series.exitCode.set(s.exit_code);
  if (s.started_at !== null) series.started.set(s.started_at / 1000);
  const cpuTotal =
    s.pid === null
      ? (totals.cpu.last(process) ?? 0)
      : totals.cpu.total(process, tree?.cpuSeconds ?? 0, s.pid, true);
  series.cpu.setTotal(cpuTotal);
  series.memory.set(tree?.rss ?? 0);
  series.fds.set(tree?.fds ?? 0);
  series.logBytes.setTotal(written.get(process) ?? 0);
}
