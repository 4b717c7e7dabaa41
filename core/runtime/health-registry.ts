/** Health contributions behind `GET /health` (DECISIONS #4). */
import type { HealthResult } from '../../sdk/context.js';

type Check = () => Promise<HealthResult> | HealthResult;

/** The overall answer of GET /health. */
export type HealthReport = { status: 'healthy' } | { status: 'unhealthy'; details: string };

const DETAILS_LIMIT = 200;
const CHECK_TIMEOUT_MS = 5000;

/** Every registered check; the report is unhealthy when any check fails, fails to answer or throws. */
export class HealthRegistry {
  private readonly checks: Array<{ owner: string; name: string; check: Check }> = [];

  add(owner: string, name: string, check: Check): void {
    this.checks.push({ owner, name, check });
  }

  async report(): Promise<HealthReport> {
    const problems: string[] = [];
    await Promise.all(
      this.checks.map(async ({ owner, name, check }) => {
        const result = await withTimeout(Promise.resolve().then(check), CHECK_TIMEOUT_MS).catch(
          (error: unknown): HealthResult => ({
            healthy: false,
            details: error instanceof Error ? error.message : String(error),
          }),
        );
        if (!result.healthy) problems.push(`${owner}/${name}: ${result.details}`);
      }),
    );
    if (problems.length === 0) return { status: 'healthy' };
    // One line, no control characters, bounded: health output ends up in container logs.
    const details = oneLine(problems.sort().join(' | ')).slice(0, DETAILS_LIMIT);
    return { status: 'unhealthy', details };
  }
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
