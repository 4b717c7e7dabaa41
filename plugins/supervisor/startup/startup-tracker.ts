/**
 * The boot of the stack as one lifecycle the DUMB dashboard shows while it lasts
 * (`GET /process/startup-status`): `initializing` until the supervisor starts, `starting_services`
 * while the enabled processes start in dependency order, then `ready`, or `degraded` naming the
 * processes that failed (at boot, or crashed since and left crashed); `shutting_down` once the
 * host stops. Kept in memory: a host restart is a
 * new boot.
 */
import { isoTime } from '../../../sdk/index.js';
import type { ProcessState } from '../../../sdk/index.js';

export type StartupPhase =
  'initializing' | 'starting_services' | 'ready' | 'degraded' | 'shutting_down';

const TERMINAL: ReadonlySet<StartupPhase> = new Set(['ready', 'degraded', 'shutting_down']);

/** How far one expected process got. */
export interface Readiness {
  readonly state: 'pending' | 'starting' | 'ready' | 'failed';
  readonly reason: string;
  readonly health_status: string | null;
}

export interface StartupStatus {
  readonly phase: StartupPhase;
  readonly terminal: boolean;
  readonly started_at: string | null;
  readonly completed_at: string | null;
  readonly expected_services: string[];
  readonly services: Record<string, Readiness>;
  readonly failures: Record<string, string>;
}

const iso = (ms: number | null) => (ms === null ? null : isoTime(ms));

export class StartupTracker {
  private phase: StartupPhase = 'initializing';
  private startedAt: number | null = null;
  private completedAt: number | null = null;
  private expected: string[] = [];
  private readonly failures = new Map<string, string>();

  /** The supervisor begins starting `names`. */
  begin(names: readonly string[], now = Date.now()): void {
    this.phase = 'starting_services';
    this.startedAt = now;
    this.expected = [...names].sort();
  }

  /** Every start was tried; `failed` maps a name to why it did not start. */
  finish(failed: ReadonlyMap<string, string>, now = Date.now()): void {
    if (this.phase === 'shutting_down') return;
    for (const [name, reason] of failed) this.failures.set(name, reason);
    this.phase = failed.size === 0 ? 'ready' : 'degraded';
    this.completedAt = now;
  }

  shuttingDown(now = Date.now()): void {
    this.phase = 'shutting_down';
    this.completedAt ??= now;
  }

  /** The status, with each expected process read from its live state. */
  status(stateOf: (name: string) => ProcessState | undefined): StartupStatus {
    const services: Record<string, Readiness> = {};
    const failures = new Map(this.failures);
    for (const name of this.expected) {
      const state = stateOf(name);
      services[name] = this.readiness(name, state);
      // A process that crashed after the boot (and is not about to be restarted) is a failure
      // too: "ready" with nothing listed would hide a crash loop that gave up.
      if (!failures.has(name) && state?.status === 'crashed')
        failures.set(name, state.reason ?? 'Process crashed.');
    }
    const phase = this.phase === 'ready' && failures.size > 0 ? 'degraded' : this.phase;
    return {
      phase,
      terminal: TERMINAL.has(phase),
      started_at: iso(this.startedAt),
      completed_at: iso(this.completedAt),
      expected_services: [...this.expected],
      services,
      failures: Object.fromEntries(failures),
    };
  }

  private readiness(name: string, state: ProcessState | undefined): Readiness {
    const failure = this.failures.get(name);
    if (failure !== undefined)
      return { state: 'failed', reason: failure, health_status: 'unhealthy' };
    if (state === undefined || (state.status === 'stopped' && state.started_at === null))
      return { state: 'pending', reason: 'Process has not started.', health_status: null };
    switch (state.status) {
      case 'running':
        return { state: 'ready', reason: 'Process running.', health_status: 'healthy' };
      case 'starting':
        return {
          state: 'starting',
          reason: state.reason ?? 'Process is starting.',
          health_status: 'starting',
        };
      default:
        return {
          state: 'failed',
          reason: state.reason ?? `Process is ${state.status}.`,
          health_status: 'unhealthy',
        };
    }
  }
}
