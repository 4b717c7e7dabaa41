/**
 * The compact numbers kept next to each stored snapshot for series reads: parsing ~1 KB of these
 * per row is far cheaper than inflating and parsing whole snapshots over a week of history.
 */
import type { MetricsSnapshotView, SeriesMetric } from '../../../sdk/contracts/metrics-feed.js';

/** One row's series values (short keys: this is stored once per history snapshot). */
export interface SeriesRow {
  /** cpu_percent */
  readonly c: number | null;
  /** load 1 min */
  readonly l: number | null;
  /** memory percent and used bytes */
  readonly m: readonly [number, number] | null;
  /** swap percent */
  readonly s: number | null;
  /** filesystem path → [percent, inode percent] */
  readonly f: Readonly<Record<string, readonly [number | null, number | null]>>;
  /** disk read and write byte counters */
  readonly d: readonly [number, number] | null;
  /** interface (or "*" for the aggregate) → [rx bytes, tx bytes] counters */
  readonly n: Readonly<Record<string, readonly [number, number]>>;
  /** process name → [cpu percent, rss bytes] */
  readonly p: Readonly<Record<string, readonly [number, number]>>;
}

/** Extract the series values of a snapshot. */
export function toSeriesRow(snapshot: MetricsSnapshotView): SeriesRow {
  const system = snapshot.system;
  const filesystems: Record<string, readonly [number | null, number | null]> = {};
  const network: Record<string, readonly [number, number]> = {};
  const processes: Record<string, readonly [number, number]> = {};
  for (const fs of system?.filesystems ?? []) filesystems[fs.path] = [fs.percent, fs.inode_percent];
  if (system?.network != null) {
    network['*'] = [system.network.rx_bytes, system.network.tx_bytes];
    for (const nic of system.network.interfaces)
      if (nic.available) network[nic.name] = [nic.rx_bytes, nic.tx_bytes];
  }
  for (const [name, process] of Object.entries(snapshot.processes))
    processes[name] = [process.cpu_percent, process.rss_bytes];
  return {
    c: system?.cpu_percent ?? null,
    l: system?.load_avg[0] ?? null,
    m: system === null ? null : [system.memory.percent, system.memory.used_bytes],
    s: system?.swap.percent ?? null,
    f: filesystems,
    d: system?.disk_io == null ? null : [system.disk_io.read_bytes, system.disk_io.write_bytes],
    n: network,
    p: processes,
  };
}

/** Which value of a row a series reads. */
export interface SeriesSelector {
  readonly metric: SeriesMetric;
  readonly processName: string | null;
  readonly path: string | null;
  /** Interface name, or "*" for the aggregate. */
  readonly networkInterface: string;
}

/** The selected value of one row, or null when the row lacks it. */
export function seriesValue(row: SeriesRow, selector: SeriesSelector): number | null {
  const path = selector.path ?? '';
  const process = selector.processName === null ? undefined : row.p[selector.processName];
  const nic = row.n[selector.networkInterface];
  switch (selector.metric) {
    case 'cpu_percent':
      return row.c;
    case 'load_1':
      return row.l;
    case 'memory_percent':
      return row.m?.[0] ?? null;
    case 'memory_used_bytes':
      return row.m?.[1] ?? null;
    case 'swap_percent':
      return row.s;
    case 'disk_percent':
      return row.f[path]?.[0] ?? null;
    case 'inode_percent':
      return row.f[path]?.[1] ?? null;
    case 'disk_read_rate':
      return row.d?.[0] ?? null;
    case 'disk_write_rate':
      return row.d?.[1] ?? null;
    case 'net_rx_rate':
      return nic?.[0] ?? null;
    case 'net_tx_rate':
      return nic?.[1] ?? null;
    case 'process_cpu_percent':
      return process?.[0] ?? null;
    case 'process_rss_bytes':
      return process?.[1] ?? null;
  }
}
