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

/** The fields of an entry, in the order the checked copy writes them. */
const FIELDS: readonly string[] = [
  'process_name',
  'status',
  'pid',
  'pid_count',
  'cpu_percent',
  'rss_bytes',
  'uptime_sec',
  'restarts',
];

/** Whether `value` has exactly the fields of an entry, in their order (no array is made). */
function hasEntryFields(value: Loose): boolean {
  let index = 0;
  for (const key in value) {
    if (key !== FIELDS[index]) return false;
    index += 1;
  }
  return index === FIELDS.length;
}

/** Whether `value` (status, CPU and RSS checked) is exactly the entry the copy would make. */
function isTakenAsIs(name: string, value: Loose): boolean {
  const { pid, pid_count, uptime_sec, restarts } = value;
  return (
    value.process_name === name &&
    (pid === null || Number.isInteger(pid)) &&
    Number.isInteger(pid_count) &&
    isCount(pid_count) &&
    (uptime_sec === null || isCount(uptime_sec)) &&
    Number.isInteger(restarts) &&
    isCount(restarts) &&
    hasEntryFields(value)
  );
}

function asProcessMetrics(name: string, value: unknown): ProcessMetrics | null {
  if (!isObject(value)) return null;
  const { status, pid, pid_count, cpu_percent, rss_bytes, uptime_sec, restarts } = value;
  if (typeof status !== 'string' || !isCount(cpu_percent) || !isCount(rss_bytes)) return null;
  // An entry that is already what the copy below would make is taken as it is: a thousand
  // copies a tick were a fifth of what the tick allocated (docs/performance-scale.md, "The idle
  // tick at 1,000"). The sample is built afresh at every tick and never changed afterwards.
  if (isTakenAsIs(name, value)) return value as unknown as ProcessMetrics;
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
 * every 15 s runs code the engine never optimizes). When every entry is taken as it is, the
 * answer is the sample itself (the supervisor makes a new one at each tick and never changes it);
 * the first entry that is not makes the copy, with the entries before it.
 */
export async function processMetricsFrom(
  sample: unknown,
  turn = new TurnBudget(),
): Promise<Readonly<Record<string, ProcessMetrics>>> {
  if (!isObject(sample)) return {};
  let result: Record<string, ProcessMetrics> | undefined;
  const names = Object.keys(sample);
  for (let index = 0; index < names.length; index += 1) {
    if (turn.spent()) await turn.next();
    const name = names[index] ?? '';
    const value = sample[name];
    const metrics = asProcessMetrics(name, value);
    // An own `__proto__` key would set the copy's prototype instead: it is never taken as it is.
    if (result === undefined && metrics === value && name !== '__proto__') continue;
    result ??= copyOf(sample, names.slice(0, index));
    if (metrics !== null) result[name] = metrics;
  }
  return result ?? (sample as Readonly<Record<string, ProcessMetrics>>);
}

/** A new record of the entries of `sample` named, each already taken as it is. */
function copyOf(sample: Loose, names: readonly string[]): Record<string, ProcessMetrics> {
  const copy: Record<string, ProcessMetrics> = {};
  for (const name of names) copy[name] = sample[name] as ProcessMetrics;
  return copy;
}
