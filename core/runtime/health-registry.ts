/** Health contributions behind `GET /health` (docs/decisions.md §4). */
import type { HealthResult } from '../../sdk/context.js';

type Check = () => Promise<HealthResult> | HealthResult;

/** The overall answer of GET /health. */
export type HealthReport =
  { status: 'healthy'; notes?: string } | { status: 'unhealthy'; details: string; notes?: string };

const DETAILS_LIMIT = 200;
const CHECK_TIMEOUT_MS = 5000;

/** Every registered check; the report is unhealthy when any check fails, fails to answer or throws. */
export class HealthRegistry {
  private readonly checks: Array<{ owner: string; name: string; check: Check }> = [];
  private readonly detailSources = new Map<string, () => unknown>();

  add(owner: string, name: string, check: Check): void {
    this.checks.push({ owner, name, check });
  }

  /**
   * A section of `GET /health?detail=true`: sizes and counters an operator looks at, not a
   * verdict (the plain answer stays the container check's exact body).
   */
  addDetail(name: string, source: () => unknown): void {
    this.detailSources.set(name, source);
  }

  /** Every detail section by name; a section that throws shows its error instead. */
  details(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, source] of this.detailSources) {
      try {
        out[name] = source();
      } catch (error) {
        out[name] = { error: error instanceof Error ? error.message : String(error) };
      }
    }
    return out;
  }

  /**
   * Synchronous when every check answered synchronously (no timer, no promise). Health is polled
   * often (container checks, load balancers): while every check is healthy without a note, the
   * answer is the shared healthy report and nothing is allocated for it.
   */
  report(): HealthReport | Promise<HealthReport> {
    let tally: HealthTally | undefined;
    let pending: Array<Promise<void>> | undefined;
    for (const entry of this.checks) {
      let result: Promise<HealthResult> | HealthResult;
      try {
        result = entry.check();
      } catch (error) {
        result = failed(error);
      }
      if (result instanceof Promise) {
        const counted = (tally ??= new HealthTally());
        (pending ??= []).push(
          withTimeout(result, CHECK_TIMEOUT_MS)
            .catch(failed)
            .then((settled) => counted.add(entry, settled)),
        );
      } else if (!result.healthy || result.note !== undefined)
        (tally ??= new HealthTally()).add(entry, result);
    }
    if (tally === undefined) return HEALTHY;
    const counted = tally;
    return pending === undefined
      ? counted.conclude()
      : Promise.all(pending).then(() => counted.conclude());
  }
}

/** The problems and notes of one report. */
class HealthTally {
  private readonly problems: string[] = [];
  // Facts a healthy check wants seen (e.g. processes adopted from a previous host start).
  private readonly notes: string[] = [];

  add(entry: { readonly owner: string; readonly name: string }, result: HealthResult): void {
    if (!result.healthy) this.problems.push(`${entry.owner}/${entry.name}: ${result.details}`);
    if (result.note !== undefined) this.notes.push(`${entry.owner}/${entry.name}: ${result.note}`);
  }

  conclude(): HealthReport {
    const { problems, notes } = this;
    const noted = notes.length === 0 ? {} : { notes: oneLine(notes.sort().join(' | ')) };
    if (problems.length === 0)
      return notes.length === 0 ? HEALTHY : { status: 'healthy', ...noted };
    return {
      status: 'unhealthy',
      details: oneLine(problems.sort().join(' | ')).slice(0, DETAILS_LIMIT),
      ...noted,
    };
  }
}

const HEALTHY: HealthReport = { status: 'healthy' };

function failed(error: unknown): HealthResult {
  return { healthy: false, details: error instanceof Error ? error.message : String(error) };
}

function oneLine(text: string): string {
  // Control characters (newlines, NULs) become spaces; health output ends up in container logs.
  return [...text].map((char) => (char.charCodeAt(0) < 0x20 ? ' ' : char)).join('');
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
