/** The in-process event bus behind `ctx.events`. Listener failures are logged, never rethrown. */
import type { EventBus, EventRef } from '../../sdk/events.js';
import type { Logger } from '../../sdk/logger.js';
import type { EventKind, PublishedEvent } from '../../sdk/journal.js';

/** Where `publish` goes: the journal, told who publishes. */
export type JournalSink = (owner: string, kind: EventKind, event: PublishedEvent<unknown>) => void;

type Listener = (payload: unknown) => void | Promise<void>;

/** Shared by all plugins of one host. */
export class HostEventBus {
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(
    private readonly logger: Logger,
    private readonly journal: JournalSink,
  ) {}

  /** A view for one plugin; its subscriptions are dropped by the returned `dispose`. */
  scoped(owner = 'core'): { bus: EventBus; dispose: () => void } {
    const owned: Array<() => void> = [];
    const bus: EventBus = {
      emit: <T>(event: EventRef<T>, payload: T) => this.emit(event.name, payload),
      on: <T>(event: EventRef<T>, listener: (payload: T) => void | Promise<void>) => {
        const off = this.on(event.name, listener as Listener);
        owned.push(off);
        return off;
      },
      publish: (kind, event) => this.journal(owner, kind, event),
    };
    return { bus, dispose: () => owned.splice(0).forEach((off) => off()) };
  }

  private on(name: string, listener: Listener): () => void {
    let set = this.listeners.get(name);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  private emit(name: string, payload: unknown): void {
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        const result = listener(payload);
        if (result instanceof Promise)
          result.catch((error: unknown) =>
            this.logger.error(`listener of ${name} failed`, { error }),
          );
      } catch (error) {
        this.logger.error(`listener of ${name} failed`, { error });
      }
    }
  }
}
