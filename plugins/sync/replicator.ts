/**
 * The replicator: the poll loop of request sync. It owns the state, the timer and the remote
 * clients. A cycle never overlaps itself; state is written atomically only when a cycle changed
 * it (an idle poll writes nothing).
 */
import {
  isoSeconds,
  notableEvent,
  type EventBus,
  type Logger,
  type OutboundClient,
  type PluginStorage,
} from '../../sdk/index.js';
import type { SyncConfig } from './config.js';
import { runCycle } from './cycle.js';
import { CycleJournal } from './cycle-events.js';

const CATCH_UP_DELAY_MS = 500;
import { RemoteClient } from './remote.js';
import type { ResolvedSubordinate } from './subordinates.js';
import { emptyState, type SyncState } from './state.js';

const STATE_FILE = 'state.json';

export interface SyncStatus {
  enabled: boolean;
  status: 'disabled' | 'initializing' | 'active';
  message?: string;
  last_poll?: string;
  next_poll?: string;
  poll_interval_seconds?: number;
  total_requests_tracked?: number;
  total_failed?: number;
  subordinates?: Record<string, { synced: number; failed: number }>;
}

export class Replicator {
  private state: SyncState | undefined;
  private config: SyncConfig | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private primaryClient: RemoteClient | undefined;
  private subordinateClients = new Map<string, RemoteClient>();
  private nextPollMs = 0;
  private primaryFailing = false;
  private readonly failingKeys = new Set<string>();

  constructor(
    private readonly storage: PluginStorage,
    private readonly events: EventBus,
    private readonly logger: Logger,
    private readonly outbound: OutboundClient,
    /** Told after each cycle: whether the primary poll failed, requests newly failing. */
    private readonly onCycle: (failed: boolean, newFailures: number) => void = () => undefined,
  ) {}

  async load(): Promise<void> {
    const stored = await this.storage.readJson<SyncState>(STATE_FILE).catch(() => undefined);
    this.state = stored ?? undefined;
  }

  /** Apply a (new) configuration: rebuild clients and reschedule. */
  apply(config: SyncConfig, subordinates: readonly ResolvedSubordinate[]): void {
    const old = [this.primaryClient, ...this.subordinateClients.values()];
    this.config = config;
    this.primaryClient = config.primary
      ? new RemoteClient(config.primary.url, config.primary.api_key, this.outbound)
      : undefined;
    this.subordinateClients = new Map(
      subordinates.map((sub) => [sub.label, new RemoteClient(sub.url, sub.api_key, this.outbound)]),
    );
    for (const client of old) void client?.close();
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.config?.enabled || this.primaryClient === undefined) return;
    this.nextPollMs = Date.now() + delayMs;
    this.timer = setTimeout(() => void this.poll(), delayMs);
    this.timer.unref();
  }

  /** Run one cycle now (or wait for the one running). */
  poll(): Promise<void> {
    this.running ??= this.cycle().finally(() => {
      this.running = undefined;
      // A cycle cut short by a subordinate's budget goes on after a breath, not a whole interval:
      // a backlog still drains at full speed, with a fresh listing each round.
      const unfinished = this.unfinished;
      this.unfinished = false;
      this.schedule(
        unfinished ? CATCH_UP_DELAY_MS : (this.config?.poll_interval_seconds ?? 60) * 1000,
      );
    });
    return this.running;
  }

  private unfinished = false;

  private async cycle(): Promise<void> {
    const config = this.config;
    const primary = this.primaryClient;
    if (!config || !primary) return;
    const state = (this.state ??= emptyState());
    const before = new Set(Object.keys(state.failed));
    const journal = new CycleJournal(this.events, state, this.subordinateClients.size);
    let changed = this.state.last_poll_ts === null;
    let failed = false;
    let primaryError: string | null = null;
    try {
      changed =
        (await runCycle(state, {
          primary,
          subordinates: this.subordinateClients,
          retryDelayMs: config.retry_delay_seconds * 1000,
          sync4k: config.sync_4k,
          userMapping: config.user_mapping,
          budgetMs: config.poll_interval_seconds * 1000,
          onOutOfTime: () => (this.unfinished = true),
          now: Date.now,
        })) || changed;
      this.transition('primary', false, 'Request sync: primary poll recovered', '');
    } catch (error) {
      failed = true;
      primaryError = (error as Error).message;
      this.transition(
        'primary',
        true,
        'Request sync: primary poll failed',
        (error as Error).message,
      );
      this.logger.warn('request sync poll failed', { error: (error as Error).message });
    }
    this.onCycle(failed, Object.keys(state.failed).filter((key) => !before.has(key)).length);
    journal.finished(primaryError, this.unfinished);
    for (const key of Object.keys(state.failed))
      if (!before.has(key))
        this.transition(
          key,
          true,
          'Request sync: a request failed to sync',
          state.failed[key]?.error ?? '',
        );
    for (const key of before)
      if (state.failed[key] === undefined)
        this.transition(key, false, 'Request sync: request synced after failing', '');
    const lastPoll = isoSeconds(Date.now());
    if (changed) {
      state.last_poll_ts = lastPoll;
      await this.save();
    } else this.lastIdlePoll = lastPoll;
  }

  private lastIdlePoll: string | undefined;

  private transition(key: string, failing: boolean, title: string, body: string): void {
    const was = key === 'primary' ? this.primaryFailing : this.failingKeys.has(key);
    if (was === failing) return;
    if (key === 'primary') this.primaryFailing = failing;
    else if (failing) this.failingKeys.add(key);
    else this.failingKeys.delete(key);
    this.events.emit(notableEvent, {
      event_type: failing ? 'request_sync.failed' : 'request_sync.recovered',
      severity: failing ? 'warning' : 'success',
      title,
      body,
      condition_key: `request_sync:${key}`,
      ...(failing ? {} : { recovered_event_type: 'request_sync.failed' }),
      source: 'sync',
    });
  }

  private async save(): Promise<void> {
    if (this.state) await this.storage.writeJsonAtomic(STATE_FILE, this.state, { mode: 0o600 });
  }

  rawState(): SyncState {
    const state = this.state ?? emptyState();
    return { ...state, last_poll_ts: this.lastIdlePoll ?? state.last_poll_ts };
  }

  status(): SyncStatus {
    const config = this.config;
    if (!config?.enabled || !config.primary) return { enabled: false, status: 'disabled' };
    const state = this.state;
    if (!state)
      return { enabled: true, status: 'initializing', message: 'Sync state not yet created' };
    const subordinates: Record<string, { synced: number; failed: number }> = {};
    for (const label of this.subordinateClients.keys())
      subordinates[label] = { synced: 0, failed: 0 };
    for (const tracked of Object.values(state.requests))
      for (const id of Object.keys(tracked.subordinates))
        if (subordinates[id]) subordinates[id].synced += 1;
    for (const key of Object.keys(state.failed)) {
      const id = key.split('||')[1] ?? '';
      if (subordinates[id]) subordinates[id].failed += 1;
    }
    const lastPoll = this.rawState().last_poll_ts;
    return {
      enabled: true,
      status: 'active',
      ...(lastPoll ? { last_poll: lastPoll } : {}),
      next_poll: isoSeconds(this.nextPollMs || Date.now()),
      poll_interval_seconds: config.poll_interval_seconds,
      total_requests_tracked: Object.keys(state.requests).length,
      total_failed: Object.keys(state.failed).length,
      subordinates,
    };
  }

  failedItems() {
    return Object.entries(this.state?.failed ?? {}).map(([key, record]) => {
      const [fingerprint = '', subordinate = ''] = key.split('||');
      return { fingerprint, subordinate, ...record };
    });
  }

  /** Clear all failed records, or those of one fingerprint; they retry on the next poll. */
  async clearFailed(fingerprint?: string): Promise<number> {
    const state = this.state;
    if (!state) return 0;
    let cleared = 0;
    for (const key of Object.keys(state.failed))
      if (fingerprint === undefined || key.split('||')[0] === fingerprint) {
        delete state.failed[key];
        cleared += 1;
      }
    if (cleared > 0) await this.save();
    return cleared;
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.config = undefined;
    await this.running?.catch(() => undefined);
    const clients = [this.primaryClient, ...this.subordinateClients.values()];
    await Promise.all(clients.map((client) => client?.close() ?? Promise.resolve()));
  }
}
