/**
 * Reads the supervisor's `processes` sample from the shared feed. It arrives as plain data from
 * another plugin (which may be absent or a different version), so each entry is checked field
 * by field and anything malformed is left out rather than trusted.
 */
import { TurnBudget } from '../../sdk/index.js';
import type { ProcessMetrics } from '../../sdk/contracts/metrics-feed.js';

type Loose = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;

function asProcessMetrics(name: string, value: unknown): ProcessMetrics | null {
  if (!isObject(value)) return null;
  const { status, pid, pid_count, cpu_percent, rss_bytes, uptime_sec, restarts } = value;
  if (typeof status !== 'string' || !isCount(cpu_percent) || !isCount(rss_bytes)) return null;
  return {
    process_name: name,
    status,
    pid: Number.isInteger(pid) ? (pid as number) : null,
    pid_count: Number.isInteger(pid_count) && isCount(pid_count) ? pid_count : 0,
    cpu_percent,
    rss_bytes,
    uptime_sec: isCount(uptime_sec) ? uptime_sec : null,
    restarts: Number.isInteger(restarts) && isCount(restarts) ? restarts : 0,
  };
}

/**
 * The valid process entries of a `processes` sample (empty when there is none), checked in turns
 * of the event loop: a thousand entries every tick held it for milliseconds in one go (a tick
 * every 15 s runs code the engine never optimizes).
 */
export async function processMetricsFrom(
  sample: unknown,
  turn = new TurnBudget(),
): Promise<Record<string, ProcessMetrics>> {
  const result: Record<string, ProcessMetrics> = {};
  if (!isObject(sample)) return result;
  for (const [name, value] of Object.entries(sample)) {
    if (turn.spent()) await turn.next();
    const metrics = asProcessMetrics(name, value);
    if (metrics !== null) result[name] = metrics;
  }
  return result;
}
