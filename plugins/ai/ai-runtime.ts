/**
 * The plugin's parts, built in one place: the provider's outbound client and its call counter,
 * the settings and session stores, the diagnosis service and its sources, and the ledger of what
 * happened (opened once storage may be touched). `index.ts` lists what the plugin registers;
 * the routes reach the parts through this object.
 */
import {
  dependencyGraphRef,
  OutboundClient,
  processSupervisorRef,
  type PluginContext,
} from '../../sdk/index.js';
import { metricsFeedRef } from '../../sdk/contracts/metrics-feed.js';
import type { BundleSources } from './bundle/bundle.js';
import { docsContext } from './bundle/docs-context.js';
import { docsDirOf, type AiConfig } from './config.js';
import { DiagnosisService } from './diagnosis.js';
import { Ledger } from './ledger.js';
import { onProviderCall, useOutbound } from './provider/provider-client.js';
import { SessionStore } from './sessions.js';
import { SettingsStore } from './settings/settings-store.js';

export class AiRuntime {
  readonly settings: SettingsStore;
  readonly diagnosis: DiagnosisService;
  private readonly outbound: OutboundClient;
  private ledger: Ledger | undefined;
  private readonly releases: Array<() => void> = [];

  constructor(private readonly ctx: PluginContext<AiConfig>) {
    this.outbound = OutboundClient.forPlugin(ctx);
    useOutbound(this.outbound);
    this.countProviderCalls();
    this.settings = new SettingsStore(ctx.storage);
    this.diagnosis = new DiagnosisService(this.settings, new SessionStore(), this.sources());
    this.releases.push(ctx.stack.onChange((change) => this.ledger?.recordConfigChange(change)));
  }

  async start(): Promise<void> {
    await this.settings.load();
    this.ledger = new Ledger(this.ctx.storage.openDatabase('events.sqlite'));
  }

  async stop(): Promise<void> {
    for (const release of this.releases.splice(0)) release();
    await this.outbound.close();
  }

  private countProviderCalls(): void {
    const calls = this.ctx.exposition.counter<'provider' | 'outcome'>({
      name: 'stackd_ai_provider_calls_total',
      help: 'Calls to the AI provider, by provider and outcome (ok, error)',
      labelNames: ['provider', 'outcome'],
    });
    this.releases.push(onProviderCall((provider, outcome) => calls.inc({ provider, outcome })));
  }

  /** What a diagnosis reads: each source is asked at the moment it is needed. */
  private sources(): BundleSources {
    const { ctx } = this;
    return {
      document: () => ctx.stack.read(),
      supervisor: () => ctx.optional(processSupervisorRef),
      history: () => this.ledger?.recent() ?? [],
      graph: () => ctx.optional(dependencyGraphRef),
      metrics: () => ctx.metricsFeed.latest(),
      docs: (subject, maxChars) =>
        docsContext(
          { docsDir: docsDirOf(ctx.stack.read()), readmePath: ctx.host.docsPath, maxChars },
          subject,
        ),
      metricsHistory: () => {
        const feed = ctx.optional(metricsFeedRef);
        return feed === undefined ? undefined : (query) => feed.history(query);
      },
    };
  }
}
