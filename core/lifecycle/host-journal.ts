/**
 * The host's event journal: a SQLite store under the data dir, fed by the event bus and by config
 * changes, watched by a health check, and served by one route and one stream.
 */
import { join } from 'node:path';
import type { Logger } from '../../sdk/logger.js';
import type { CapabilityRegistry } from '../capabilities/capability-registry.js';
import type { ConfigStore } from '../config/config-store.js';
import type { RouteTable } from '../http/route-table.js';
import { recordConfigChanges } from '../journal/config-events.js';
import { EventJournal } from '../journal/event-journal.js';
import { journalRoutes } from '../journal/journal-routes.js';
import { JournalStore } from '../journal/journal-store.js';
import { JournalStream } from '../journal/journal-stream.js';
import { HostEventBus } from '../runtime/event-bus.js';
import type { HealthRegistry } from '../runtime/health-registry.js';
import type { StreamHub } from '../ws/stream-hub.js';
import { journalSettings } from './host-settings.js';

/** What opening the journal needs from the host. */
export interface JournalEnvironment {
  readonly dataDir: string;
  readonly hostSection: Record<string, unknown>;
  readonly logger: Logger;
  readonly validateEvents: boolean;
  readonly config: ConfigStore;
  readonly health: HealthRegistry;
}

/** Open the journal and the event bus that records into it. */
export function openJournal(env: JournalEnvironment): {
  journal: EventJournal;
  bus: HostEventBus;
} {
  const journalLog = env.logger.child('journal');
  const store = new JournalStore(
    join(env.dataDir, 'journal', 'events.db'),
    journalSettings(env.hostSection),
    (error) => journalLog.error('journal write failed', { error }),
    // Opened after the listen (openJournalSoon): SQLite's WebAssembly and the file's open are a
    // sixth of the boot, and nothing needs them to answer the first request.
    { deferOpen: true },
  );
  const journal = new EventJournal(store, env.validateEvents);
  const bus = new HostEventBus(env.logger.child('events'), (owner, kind, event) =>
    journal.publish(owner, kind, event),
  );
  journal.recordNotableEvents(bus.scoped().bus);
  journal.recordProcessStates(bus.scoped().bus);
  recordConfigChanges(journal, env.config);
  env.health.addDetail('journal', () => store.size());
  env.health.add('host', 'journal', () =>
    store.writeFailure === null
      ? { healthy: true }
      : { healthy: false, details: `event journal write failed: ${store.writeFailure}` },
  );
  return { journal, bus };
}

/**
 * How long after the listen the journal's file opens, unless a read opens it first: past the
 * burst of a boot (adopting or starting the processes), whose events wait in memory until then.
 * The symlinks bench waits this long before it measures a repair.
 */
export const OPEN_AFTER_LISTEN_MS = 1_000;

/** Open the journal's file a little after the host listens. */
export function openJournalSoon(journal: EventJournal): void {
  journal.store.openAfter(OPEN_AFTER_LISTEN_MS);
}

/** The journal's route and stream, once every plugin declared its event kinds. */
export function registerJournalApi(
  journal: EventJournal,
  host: {
    readonly routes: RouteTable;
    readonly streams: StreamHub;
    readonly capabilities: CapabilityRegistry;
  },
): void {
  for (const route of journalRoutes(journal)) host.routes.add('host', route);
  const stream = new JournalStream(journal);
  stream.attach(host.streams.registerRuntime('host', stream.definition()));
  host.capabilities.declare('core', ['event_journal']);
  host.capabilities.set('core', 'event_journal', true);
  host.capabilities.markStarted('core');
}
