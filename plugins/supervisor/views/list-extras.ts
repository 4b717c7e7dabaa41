/** Figures of the process list read from elsewhere: the metrics snapshot and the listen URL. */
import type { MetricsSnapshot } from '../../../sdk/index.js';
import { isJsonRecord } from '../../../sdk/index.js';

/**
 * CPU and memory of one process tree from the latest `processes` sample, if it has them for this
 * launch (`pid`): a sample taken before a (re)start describes a run that is gone.
 */
export function processUsageOf(
  snapshot: MetricsSnapshot | null,
  processName: string,
  pid: number,
): { cpu_percent: number; rss_bytes: number } | undefined {
  const sample = snapshot?.collectors.processes;
  const figures = isJsonRecord(sample) ? sample[processName] : undefined;
  if (!isJsonRecord(figures) || figures.pid !== pid) return undefined;
  const { cpu_percent: cpu, rss_bytes: rss } = figures;
  return typeof cpu === 'number' && typeof rss === 'number'
    ? { cpu_percent: cpu, rss_bytes: rss }
    : undefined;
}

/** The port of `http://host:port`, or null before the host listens. */
export function listenPortOf(baseUrl: string | null): number | null {
  if (baseUrl === null) return null;
  const port = Number(new URL(baseUrl).port);
  return Number.isInteger(port) && port > 0 ? port : null;
}
