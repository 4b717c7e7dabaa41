/**
 * `stackd.notable-event`: what any plugin reports for a person to hear about (a crash, a failed
 * job, a sync failure, a lockout, a threshold). The notifications plugin routes these to
 * destinations; other plugins only emit and never know who listens.
 */
import { defineEvent } from '../events.js';

/** Severity values, lowest rank first (GET /notifications/events lists them in this order). */
export const NOTABLE_SEVERITIES = ['info', 'success', 'warning', 'critical'] as const;
/** One severity value. */
export type NotableSeverity = (typeof NOTABLE_SEVERITIES)[number];

/**
 * Event types the built-in plugins emit (DUMB's names, so dashboards and saved filters carry
 * over). Third-party plugins may emit their own `<plugin>.<noun>.<verb>` types too.
 */
export const NOTABLE_EVENT_TYPES = [
  'manual',
  'stackd.startup.ready',
  'stackd.startup.degraded',
  'service.start.failed',
  'service.unhealthy',
  'service.stopped.unexpectedly',
  'service.auto_restart.attempt',
  'service.auto_restart.succeeded',
  'service.auto_restart.failed',
  'service.auto_restart.suppressed',
  // A resource limit of a process tree was hit; condition_key names the limit, so a cooldown
  // holds per limit (memory_high warnings do not silence a memory_max kill).
  'service.limit.reached',
  'symlink.job.succeeded',
  'symlink.job.failed',
  'request_sync.failed',
  'request_sync.recovered',
  'auth.login.locked_out',
  'resource.cpu.high',
  'resource.memory.high',
  'resource.disk.high',
  'resource.inode.high',
  'database.pressure',
  'recovery',
] as const;

/** A notable event. Text fields must already be free of secrets (use the sdk redaction). */
export interface NotableEvent {
  /** One of {@link NOTABLE_EVENT_TYPES} or a plugin's own dotted type. */
  readonly event_type: string;
  readonly severity: NotableSeverity;
  readonly title: string;
  readonly body: string;
  /** The process it concerns (exact `process_name`), when it concerns one. */
  readonly service_name?: string;
  /**
   * What makes two events "the same condition" for cooldowns (a threshold path, a fingerprint);
   * empty when the type and service say it all.
   */
  readonly condition_key?: string;
  /** For `recovery`: the event type that recovered. */
  readonly recovered_event_type?: string;
  /** The plugin that emitted it. */
  readonly source: string;
  /** Small, redacted, JSON-safe details for the payload. */
  readonly details?: Readonly<Record<string, string | number | boolean | null>>;
}

/** The event every plugin emits for notifications (`ctx.events.emit(notableEvent, {...})`). */
export const notableEvent = defineEvent<NotableEvent>('stackd.notable-event');
