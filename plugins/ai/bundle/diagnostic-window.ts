/**
 * The diagnostic window of a bundle (docs/original-product.md §13): the current period and the baseline it
 * is compared with, and the runtime metrics of one process summarised over both from the
 * metrics history (CPU, RSS, PIDs seen, restarts indicated, percent changes).
 */
import { isoTime } from '../../../sdk/index.js';
import type {
  MetricsHistoryPage,
  MetricsHistoryQuery,
  MetricsSnapshotView,
} from '../../../sdk/contracts/metrics-feed.js';
import type { LedgerEvent } from '../ledger.js';

const HOUR_MS = 3_600_000;
const MIN_SINCE_CHANGE_MS = 900_000;

export type Comparison = 'previous_period' | 'since_change' | 'none';

export interface Span {
  readonly start: string;
  readonly end: string;
}

export interface DiagnosticWindow {
  readonly current: Span;
  readonly baseline: Span | null;
  readonly comparison: Comparison;
  readonly boundary_event: { at: string; kind: string; keys: string[] } | null;
}

/** Hours clamped to 0.25–720 (24 when absent or 0); unknown comparisons are previous_period. */
export function diagnosticWindow(
  options: { window_hours?: number | undefined; comparison?: string | undefined },
  changes: readonly LedgerEvent[],
  now = Date.now(),
): DiagnosticWindow {
  const hours = Math.min(720, Math.max(0.25, options.window_hours || 24));
  const mode = (options.comparison ?? '').trim().toLowerCase();
  const length = hours * HOUR_MS;
  if (mode === 'none' || mode === 'off')
    return {
      current: { start: isoTime(now - length), end: isoTime(now) },
      baseline: null,
      comparison: 'none',
      boundary_event: null,
    };
  if (mode === 'since_change') {
    const change = changes.find((event) => event.at < now);
    if (change !== undefined) {
      const boundary = change.at;
      const duration = Math.max(MIN_SINCE_CHANGE_MS, now - boundary);
      return {
        current: { start: isoTime(boundary), end: isoTime(now) },
        baseline: { start: isoTime(boundary - duration), end: isoTime(boundary) },
        comparison: 'since_change',
        boundary_event: { at: isoTime(boundary), kind: change.kind, keys: change.keys },
      };
    }
  }
  return {
    current: { start: isoTime(now - length), end: isoTime(now) },
    baseline: { start: isoTime(now - 2 * length), end: isoTime(now - length) },
    comparison: 'previous_period',
    boundary_event: null,
  };
}

function summary(values: number[]) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    samples: values.length,
    average: round(values.reduce((sum, value) => sum + value, 0) / values.length),
    median: round(at(0.5)),
    p95: round(at(0.95)),
    maximum: round(sorted[sorted.length - 1] ?? 0),
    minimum: round(sorted[0] ?? 0),
  };
}

function periodOf(items: readonly MetricsSnapshotView[], span: Span, processName: string) {
  const start = Date.parse(span.start);
  const end = Date.parse(span.end);
  const inside = items.filter((item) => {
    const at = Date.parse(item.timestamp);
    return at >= start && at < end;
  });
  const samples = inside
    .map((item) => ({ at: item.timestamp, process: item.processes[processName] }))
    .filter((sample) => sample.process !== undefined);
  const pids = [
    ...new Set(samples.map((sample) => sample.process?.pid).filter((pid) => pid != null)),
  ];
  return {
    sample_count: samples.length,
    missing_sample_count: inside.length - samples.length,
    coverage_start: samples[0]?.at ?? null,
    coverage_end: samples[samples.length - 1]?.at ?? null,
    observed_pids: pids,
    restart_indications: Math.max(0, pids.length - 1),
    cpu_percent: summary(samples.map((sample) => sample.process?.cpu_percent ?? 0)),
    rss_bytes: summary(samples.map((sample) => sample.process?.rss_bytes ?? 0)),
  };
}

const change = (now: number | undefined, before: number | undefined) =>
  now === undefined || before === undefined || before === 0
    ? undefined
    : Math.round(((now - before) / before) * 10_000) / 100;

/** Both periods of the window and how the averages moved between them (in percent). */
function compared(page: MetricsHistoryPage, window: DiagnosticWindow, processName: string) {
  const current = periodOf(page.items, window.current, processName);
  const baseline =
    window.baseline === null ? null : periodOf(page.items, window.baseline, processName);
  const cpu = change(current.cpu_percent?.average, baseline?.cpu_percent?.average);
  const rss = change(current.rss_bytes?.average, baseline?.rss_bytes?.average);
  return {
    current,
    ...(baseline === null ? {} : { baseline }),
    changes: {
      ...(cpu === undefined ? {} : { cpu_percent_average_percent: cpu }),
      ...(rss === undefined ? {} : { rss_bytes_average_percent: rss }),
    },
  };
}

/** Runtime metrics of one process over the window, or why there are none. */
export async function runtimeMetrics(
  read: ((query: MetricsHistoryQuery) => Promise<MetricsHistoryPage>) | undefined,
  window: DiagnosticWindow,
  processName: string,
) {
  if (read === undefined) return { available: false, reason: 'The metrics plugin is not loaded.' };
  try {
    const from = window.baseline?.start ?? window.current.start;
    const page = await read({
      since: Date.parse(from) / 1000,
      until: Date.parse(window.current.end) / 1000,
      limit: 5000,
    });
    if (page.items.length === 0)
      return {
        available: false,
        reason: 'No metrics history for this window (history disabled or just started).',
      };
    return { available: true, truncated: page.truncated, ...compared(page, window, processName) };
  } catch (error) {
    return { available: false, reason: (error as Error).message };
  }
}
