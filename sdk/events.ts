/** In-process events between plugins, typed by an {@link EventRef}. */
import type { JournalPublisher } from './journal.js';

/** A typed event name, `plugin.noun-verbed` (for example `supervisor.process-exited`). */
export interface EventRef<T> {
  readonly name: string;
  /** Phantom field carrying the payload type; never set at runtime. */
  readonly __payload?: T;
}

/** Create an event ref. */
export function defineEvent<T>(name: string): EventRef<T> {
  return Object.freeze({ name });
}

/**
 * Publish/subscribe on the host's event bus. Listener errors are logged, never rethrown.
 * `publish` records a declared event kind in the host's journal (clients read it with a cursor).
 */
export interface EventBus extends JournalPublisher {
  emit<T>(event: EventRef<T>, payload: T): void;
  /** Subscribe; returns an unsubscribe function. Listeners are removed at stop. */
  on<T>(event: EventRef<T>, listener: (payload: T) => void | Promise<void>): () => void;
}
