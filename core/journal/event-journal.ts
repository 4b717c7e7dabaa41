/**
 * The host's event journal: the kinds plugins declared (with their data schemas, for the OpenAPI
 * document and the `kinds` filter) and the store every publish goes to. Core records the
 * notification-worthy events every plugin already emits on the bus, so those need no change.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { EventKind, PublishedEvent } from '../../sdk/journal.js';
import { notableEvent, NOTABLE_EVENT_TYPES } from '../../sdk/contracts/notable-events.js';
import type { EventBus } from '../../sdk/events.js';
import { processStateChanged } from '../../sdk/contracts/process-supervisor.js';
import { compareText } from '../../sdk/text-order.js';
import { compileSchema, type CompiledSchema } from '../schema/compiler.js';
import type { JournalStore } from './journal-store.js';

/** One declared kind and who declared it. */
export interface DeclaredKind {
  readonly owner: string;
  readonly kind: EventKind;
  readonly check: CompiledSchema | undefined;
}

const NotableData = Type.Object({
  severity: Type.String(),
  title: Type.String(),
  body: Type.String(),
  source: Type.String({ description: 'The plugin that reported it.' }),
  condition_key: Type.Optional(Type.String()),
  recovered_event_type: Type.Optional(Type.String()),
  details: Type.Optional(
    Type.Record(
      Type.String(),
      Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
    ),
  ),
});

const ProcessStateData = Type.Object({
  status: Type.String({ description: 'starting, running, backoff, crashed, stopped, …' }),
  pid: Type.Union([Type.Integer(), Type.Null()]),
  exit_code: Type.Union([Type.Integer(), Type.Null()]),
  restarts: Type.Integer({ minimum: 0 }),
  reason: Type.Union([Type.String(), Type.Null()]),
});

/** Kind of every supervised process's state change (a crash loop is a stream of these). */
export const PROCESS_STATE_KIND = 'process.state';

/** Kind under which a notable event of a type nobody declared is recorded. */
export const OTHER_NOTABLE_KIND = 'notable.other';

/** Every declared kind, and publishing into the store. */
export class EventJournal {
  private readonly kinds = new Map<string, DeclaredKind>();

  constructor(
    readonly store: JournalStore,
    /** Check each publish against its kind's schema (tests turn this on). */
    private readonly validate: boolean,
  ) {
    for (const type of [...NOTABLE_EVENT_TYPES, OTHER_NOTABLE_KIND])
      this.declare('core', {
        kind: type,
        description: `A notable event (${type}), as the notifications plugin routes it.`,
        subject: 'The process it concerns, else the plugin that reported it.',
        data: NotableData,
      });
    this.declare('core', {
      kind: PROCESS_STATE_KIND,
      description:
        'A supervised process changed state (started, crashed, backing off, gave up, …).',
      subject: 'The process name.',
      data: ProcessStateData,
    });
  }

  /** Record every process state change the supervisor reports; returns the unsubscribe function. */
  recordProcessStates(bus: EventBus): () => void {
    return bus.on(processStateChanged, (state) =>
      this.store.append(PROCESS_STATE_KIND, state.process_name, {
        status: state.status,
        pid: state.pid,
        exit_code: state.exit_code,
        restarts: state.restarts,
        reason: state.reason,
      }),
    );
  }

  /** Declare a kind; a kind declared by two owners is an error naming both. */
  declare(owner: string, kind: EventKind): void {
    const existing = this.kinds.get(kind.kind);
    if (existing !== undefined)
      throw new Error(
        `event kind '${kind.kind}' of '${owner}' is already declared by '${existing.owner}'`,
      );
    this.kinds.set(kind.kind, {
      owner,
      kind,
      check: this.validate ? compileSchema(kind.data) : undefined,
    });
  }

  /** Whether a kind name was declared. */
  has(kind: string): boolean {
    return this.kinds.has(kind);
  }

  /**
   * Declared kinds in name order (OpenAPI). Code-unit order, not `localeCompare`: the boot builds
   * the journal's route schemas from this list, and the first `localeCompare` of a process loads
   * ICU's collation: 6 % of the instructions a supervisor-only boot ran before it listened.
   */
  all(): DeclaredKind[] {
    return [...this.kinds.values()].sort((a, b) => compareText(a.kind.kind, b.kind.kind));
  }

  /** Record an event of a declared kind. */
  publish<S extends TSchema>(
    owner: string,
    kind: EventKind<S>,
    event: PublishedEvent<unknown>,
  ): void {
    const declared = this.kinds.get(kind.kind);
    if (declared === undefined || declared.owner !== owner)
      throw new Error(`'${owner}' publishes event kind '${kind.kind}' it did not declare`);
    const failure = declared.check?.firstError(event.data);
    if (failure !== undefined)
      throw new Error(
        `event kind '${kind.kind}': data field '${failure.field}' does not match its schema: ${failure.message}`,
      );
    this.store.append(kind.kind, event.subject, event.data);
  }

  /** Record the notable events plugins emit on the bus; returns the unsubscribe function. */
  recordNotableEvents(bus: EventBus): () => void {
    return bus.on(notableEvent, (event) => {
      const kind =
        this.kinds.get(event.event_type)?.owner === 'core' ? event.event_type : OTHER_NOTABLE_KIND;
      const data: Record<string, unknown> = {
        severity: event.severity,
        title: event.title,
        body: event.body,
        source: event.source,
      };
      if (event.condition_key !== undefined) data.condition_key = event.condition_key;
      if (event.recovered_event_type !== undefined)
        data.recovered_event_type = event.recovered_event_type;
      if (event.details !== undefined) data.details = event.details;
      this.store.append(kind, event.service_name ?? event.source, data);
    });
  }
}
