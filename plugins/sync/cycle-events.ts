/** Request-sync cycles in the event journal: when one starts and what it did (never an API key). */
import { defineEventKind, StringEnum, Type, type EventBus } from '../../sdk/index.js';
import type { SyncState } from './state.js';

const SUBJECT = 'request_sync';

export const cycleStarted = defineEventKind({
  kind: 'request_sync.cycle.started',
  description: 'A request-sync cycle began polling the primary.',
  subject: 'Always `request_sync`.',
  data: Type.Object({ subordinates: Type.Integer({ minimum: 0 }) }),
});

export const cycleFinished = defineEventKind({
  kind: 'request_sync.cycle.finished',
  description:
    'A request-sync cycle ended: `ok`, or `failed` when the primary could not be polled (its error).',
  subject: 'Always `request_sync`.',
  data: Type.Object({
    outcome: StringEnum(['ok', 'failed'] as const),
    created: Type.Integer({ minimum: 0, description: 'Requests created on subordinates.' }),
    deleted: Type.Integer({ minimum: 0, description: 'Copies deleted on subordinates.' }),
    failed: Type.Integer({ minimum: 0, description: 'Requests that newly failed to sync.' }),
    failing: Type.Integer({ minimum: 0, description: 'Requests failing after the cycle.' }),
    error: Type.Union([Type.String(), Type.Null()], { description: "The primary's error." }),
    unfinished: Type.Boolean({
      description: 'A subordinate ran out of time; the rest follows soon.',
    }),
    duration_ms: Type.Integer({ minimum: 0 }),
  }),
});

/** The cycle kinds, declared together. */
export const CYCLE_EVENT_KINDS = [cycleStarted, cycleFinished] as const;

/** Every subordinate copy the state knows of, as `fingerprint||subordinate`. */
function copies(state: SyncState): Set<string> {
  const out = new Set<string>();
  for (const [fingerprint, tracked] of Object.entries(state.requests))
    for (const subordinate of Object.keys(tracked.subordinates))
      out.add(`${fingerprint}||${subordinate}`);
  return out;
}

/** One cycle's journal: created at its start, told its end. */
export class CycleJournal {
  private readonly startedAt = performance.now();
  private readonly before: Set<string>;
  private readonly failedBefore: Set<string>;

  constructor(
    private readonly events: EventBus,
    private readonly state: SyncState,
    subordinates: number,
  ) {
    this.before = copies(state);
    this.failedBefore = new Set(Object.keys(state.failed));
    events.publish(cycleStarted, { subject: SUBJECT, data: { subordinates } });
  }

  finished(error: string | null, unfinished: boolean): void {
    const after = copies(this.state);
    const failing = Object.keys(this.state.failed);
    this.events.publish(cycleFinished, {
      subject: SUBJECT,
      data: {
        outcome: error === null ? 'ok' : 'failed',
        created: [...after].filter((copy) => !this.before.has(copy)).length,
        deleted: [...this.before].filter((copy) => !after.has(copy)).length,
        failed: failing.filter((key) => !this.failedBefore.has(key)).length,
        failing: failing.length,
        error,
        unfinished,
        duration_ms: Math.round(performance.now() - this.startedAt),
      },
    });
  }
}
