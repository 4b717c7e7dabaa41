/**
 * POST /process/start-core-service as a domain operation. For each item of the start plan, in
 * order: write its block (validated and persisted atomically, only that block's subtree), run the
 * setup hooks, move its port off a conflict (and save), then launch and wait (bounded) for it to
 * run. A failing item becomes an entry of `errors`; the others still start.
 */
import { isHttpError, type JsonRecord, type Logger, type StackConfig } from '../../../sdk/index.js';
import type { ServiceCatalogRegistry } from '../catalog/service-catalog.js';
import type { ProcessEntry } from '../../../sdk/index.js';
import type { ProcessSupervisor } from '../../../sdk/index.js';
import type { StartCoreServiceBody, StartError, StartResult } from '../schemas.js';
import { applyPlanItem } from './plan-block.js';
import { resolvePort } from './port-conflicts.js';
import { entryAtPath } from './setup-hooks.js';
import { buildStartPlan, type PlanItem } from './start-plan.js';
import { ONBOARDING_START_FAILED } from '../errors.js';

/** What the starter works with. */
export interface CoreServiceStarterDeps {
  readonly catalog: ServiceCatalogRegistry;
  readonly stack: StackConfig;
  /** Launches with a bounded wait (without its preparers: the starter runs setup itself). */
  readonly supervisor: () => ProcessSupervisor;
  /** The process entries of the current document. */
  readonly entries: () => ProcessEntry[];
  /** Setup hooks of an entry; returns the entry as saved afterwards. */
  readonly setup: (entry: ProcessEntry) => Promise<ProcessEntry>;
  /** Ports taken whatever the blocks say (the host's own listen port). */
  readonly reservedPorts: () => number[];
  readonly logger: Logger;
}

/** The response body. */
export interface StartCoreServiceResult {
  readonly results: StartResult[];
  readonly errors: StartError[];
}

function setPort(document: JsonRecord, path: readonly string[], port: number): void {
  let current: unknown = document;
  for (const key of path) current = (current as JsonRecord)[key];
  (current as JsonRecord).port = port;
}

/** Runs start-core-service requests, one at a time. */
export class CoreServiceStarter {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: CoreServiceStarterDeps) {}

  /** Serialized: two onboarding requests never interleave their config writes and port picks. */
  run(body: StartCoreServiceBody): Promise<StartCoreServiceResult> {
    const next = this.queue.then(() => this.runNow(body));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async runNow(body: StartCoreServiceBody): Promise<StartCoreServiceResult> {
    const plan = buildStartPlan(body, this.deps.catalog, this.deps.stack.read());
    const results: StartResult[] = [];
    const errors = [...plan.errors];
    for (const item of plan.items) {
      let service = item.service.name;
      try {
        service = await this.write(item);
        const result = await this.launch(item);
        results.push({
          service: result.process_name,
          config_key: item.path[0] as string,
          role: item.role,
          status: result.status,
        });
      } catch (error) {
        errors.push(this.errorItem(service, error));
      }
    }
    return { results, errors };
  }

  /** Write the block (validators run; only its subtree is persisted). */
  private async write(item: PlanItem): Promise<string> {
    let processName = item.service.name;
    await this.deps.stack.update(
      (draft) => {
        processName = applyPlanItem(draft, item);
      },
      { persist: item.path, reason: 'start-core-service' },
    );
    return processName;
  }

  private entryAt(path: readonly string[]): ProcessEntry {
    const found = entryAtPath(this.deps.entries(), path);
    if (found === undefined) throw new Error(`no process block at ${path.join('.')}`);
    return found;
  }

  private async launch(
    item: PlanItem,
  ): Promise<{ process_name: string; status: StartResult['status'] }> {
    let entry = this.entryAt(item.path);
    const supervisor = this.deps.supervisor();
    if (entry.block.enabled !== true)
      return { process_name: entry.process_name, status: 'disabled' };
    const before = supervisor.state(entry.process_name)?.status;
    if (before === 'running' || before === 'starting')
      return { process_name: entry.process_name, status: 'already_running' };
    entry = await this.deps.setup(entry);
    const moved = await resolvePort(entry, this.deps.entries(), {
      reserved: this.deps.reservedPorts(),
    });
    if (moved !== null) {
      this.deps.logger.info(
        `${entry.process_name}: port ${String(entry.block.port)} is taken, using ${moved}`,
      );
      await this.deps.stack.update((draft) => setPort(draft, entry.path, moved), {
        persist: entry.path,
        reason: `port conflict of ${entry.process_name}`,
      });
      entry = this.entryAt(item.path);
    }
    const outcome = await supervisor.launch(entry.process_name, { prepare: false });
    return { process_name: entry.process_name, status: outcome.done ? 'started' : 'starting' };
  }

  private errorItem(service: string, error: unknown): StartError {
    if (isHttpError(error)) {
      return {
        service,
        detail: error.message,
        code: error.code,
        ...(error.field === undefined ? {} : { field: error.field }),
      };
    }
    this.deps.logger.error(`start-core-service: ${service} failed`, { error });
    return {
      service,
      detail: error instanceof Error ? error.message : String(error),
      code: ONBOARDING_START_FAILED,
    };
  }
}
