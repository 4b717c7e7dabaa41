/**
 * The onboarding plugin's parts, built in one place: the service catalog, the process entries of
 * the document, the setup hooks, the core-service starter and the service UI state. `index.ts`
 * lists what the plugin registers and hands each route the part it serves.
 */
import {
  derivedFromStack,
  listProcessEntries,
  processSupervisorRef,
  type PluginContext,
  type ProcessEntry,
} from '../../sdk/index.js';
import { loadCatalogs } from './catalog/load-catalog.js';
import { ServiceCatalogRegistry } from './catalog/service-catalog.js';
import type { OnboardingConfig } from './config.js';
import { ServiceUiState } from './service-ui/service-ui-state.js';
import { CoreServiceStarter } from './start/core-service-starter.js';
import { runSetupHooks } from './start/setup-hooks.js';

/** Everything the onboarding plugin runs, made once at register time. */
export class OnboardingRuntime {
  readonly catalog = new ServiceCatalogRegistry();
  readonly entries: () => ProcessEntry[];
  readonly starter: CoreServiceStarter;
  readonly serviceUis: ServiceUiState;

  constructor(private readonly ctx: PluginContext<OnboardingConfig>) {
    this.entries = derivedFromStack(ctx.stack, listProcessEntries);
    this.starter = new CoreServiceStarter({
      catalog: this.catalog,
      stack: ctx.stack,
      supervisor: () => ctx.use(processSupervisorRef),
      entries: this.entries,
      setup: (entry) => this.setup(entry),
      reservedPorts: () => {
        const base = ctx.host.baseUrl();
        return base === null ? [] : [Number(new URL(base).port)];
      },
      logger: ctx.logger.child('start'),
    });
    this.serviceUis = new ServiceUiState(ctx.stack);
    ctx.stack.onChange(() => this.serviceUis.invalidate());
  }

  /** The setup hooks of one process, run before its launch. */
  setup(entry: ProcessEntry): Promise<ProcessEntry> {
    const { ctx } = this;
    return runSetupHooks(entry, {
      catalog: this.catalog,
      stack: ctx.stack,
      dataDir: ctx.host.dataDir,
      logger: ctx.logger,
      entries: this.entries,
    });
  }

  /**
   * Setup hooks run before every launch the control routes make, not only at onboarding.
   * Returns the function that stops that.
   */
  prepareEveryStart(): () => void {
    return this.ctx.use(processSupervisorRef).addStartPreparer(async (process) => {
      const entry = this.entries().find(
        (candidate) => candidate.process_name === process.process_name,
      );
      if (entry !== undefined) await this.setup(entry);
    });
  }

  start(): Promise<void> {
    return loadCatalogs(this.catalog, this.ctx.config.catalog_file, this.ctx.host.dataDir);
  }
}
