/**
 * The sync plugin's parts, built in one place: the replicator with its cycle counters, the
 * outbound client every remote call goes through, and the configuration hooks (the validator
 * that checks the slice and its URLs before a change is accepted, the view DUMB's dashboard edits,
 * and re-applying the settings on every change). `start` and `stop` are the plugin's hooks.
 */
import { OutboundClient, type PluginContext } from '../../sdk/index.js';
import { syncConfigOf, validateSyncSlice } from './config.js';
import { seerrSyncView } from './dashboard-view.js';
import { Replicator } from './replicator.js';
import { resolveSubordinates } from './subordinates.js';

/** What the runtime needs from the plugin context. */
export type SyncRuntimeContext = Pick<
  PluginContext,
  'stack' | 'storage' | 'events' | 'logger' | 'exposition' | 'host' | 'config'
>;

/** The sync plugin's parts and hooks. */
export class SyncRuntime {
  readonly outbound: OutboundClient;
  readonly replicator: Replicator;
  private readonly detach: (() => void)[] = [];

  constructor(private readonly ctx: SyncRuntimeContext) {
    const cycles = ctx.exposition.counter<'outcome'>({
      name: 'stackd_sync_cycles_total',
      help: 'Request-sync cycles by outcome (ok, failed: the primary could not be polled)',
      labelNames: ['outcome'],
    });
    const requestFailures = ctx.exposition.counter({
      name: 'stackd_sync_request_failures_total',
      help: 'Requests that failed to sync to a subordinate',
    });
    this.outbound = OutboundClient.forPlugin(ctx);
    this.replicator = new Replicator(
      ctx.storage,
      ctx.events,
      ctx.logger,
      this.outbound,
      (failed, newFailures) => {
        cycles.inc({ outcome: failed ? 'failed' : 'ok' });
        requestFailures.inc({}, newFailures);
      },
    );
    this.detach.push(
      ctx.stack.addValidator((candidate) => this.validate(candidate)),
      ctx.stack.onChange(() => this.applyConfig()),
      // DUMB's dashboard edits these settings as `seerr_sync` (docs/decisions.md §27).
      ctx.stack.addView(seerrSyncView),
    );
  }

  /** A change is refused unless its sync slice and every URL in it pass. */
  private validate(candidate: Parameters<typeof syncConfigOf>[0]): void {
    validateSyncSlice(candidate);
    const config = syncConfigOf(candidate);
    if (config.primary) this.outbound.checkUrl(config.primary.url, 'stackd.sync.primary.url');
    config.subordinates.forEach((sub, index) =>
      this.outbound.checkUrl(sub.url, `stackd.sync.subordinates.${index}.url`),
    );
  }

  private applyConfig(): void {
    const document = this.ctx.stack.read();
    const config = syncConfigOf(document);
    this.replicator.apply(config, resolveSubordinates(config, document));
  }

  /** Load the saved state, then follow the settings. */
  async start(): Promise<void> {
    await this.replicator.load();
    this.applyConfig();
  }

  async stop(): Promise<void> {
    for (const undo of this.detach.splice(0)) undo();
    await this.replicator.stop();
    await this.outbound.close();
  }
}
