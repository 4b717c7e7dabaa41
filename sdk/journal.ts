/**
 * The event journal: what happened to the stack, recorded by core with a cursor so a client that
 * was away can ask for exactly what it missed. Plugins declare each kind they publish with a
 * schema for its `data` (the kinds and schemas appear in the OpenAPI document) and publish
 * `{subject, data}` through `ctx.events.publish`.
 */
import type { Static, TSchema } from '@sinclair/typebox';

/** A declared event kind: `area.noun.verb` (for example `config.changed`). */
export interface EventKind<S extends TSchema = TSchema> {
  /** The kind's name, as clients filter on it (`kinds=config.changed`). */
  readonly kind: string;
  /** One line for the OpenAPI document. */
  readonly description: string;
  /** What the subject names for this kind (a process name, a username, a config path). */
  readonly subject: string;
  /** Schema of the event's `data`; text in it must already be free of secrets. */
  readonly data: S;
}

/** Create an event kind (an identity helper that keeps the data type). */
export function defineEventKind<S extends TSchema>(kind: EventKind<S>): EventKind<S> {
  return Object.freeze({ ...kind });
}

/** What a plugin publishes: the subject (exact, filterable) and the kind's data. */
export interface PublishedEvent<T> {
  readonly subject: string;
  readonly data: T;
}

/** One recorded event, as clients read it. */
export interface JournalEvent {
  /** Strictly increasing across host restarts; a positive integer. */
  readonly cursor: number;
  /** ISO 8601 UTC time of the publish. */
  readonly time: string;
  readonly kind: string;
  readonly subject: string;
  readonly data: unknown;
}

/** Publishing into the journal (part of `ctx.events`). */
export interface JournalPublisher {
  /**
   * Record an event of a kind the plugin declared with `ctx.eventKind(...)`. Writes are batched:
   * clients see the event once it is stored, a few tens of milliseconds later.
   */
  publish<S extends TSchema>(kind: EventKind<S>, event: PublishedEvent<Static<S>>): void;
}
