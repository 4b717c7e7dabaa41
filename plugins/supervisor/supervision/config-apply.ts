/**
 * The apply path of configuration changes users make (POST /config, a rollback, the file edited
 * on disk): the change's plan (change-plan.ts, the same function the preview answers with) is
 * run step by step, one change after the other, each step logged.
 */
import type { DependencyGraphService, JsonRecord, Logger } from '../../../sdk/index.js';
import { planChange, type ChangePlan, type PlanContext } from '../config-model/change-plan.js';
import type { ProcessControl } from './process-control.js';
import type { Supervisor } from './supervisor.js';

const ACTIVE = new Set(['running', 'starting', 'backoff']);

/** Plans and applies configuration changes to the running processes. */
export class ConfigApplier {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly supervisor: Supervisor,
    private readonly control: ProcessControl,
    private readonly graph: () => DependencyGraphService | undefined,
    private readonly logger: Logger,
  ) {}

  private context(): PlanContext {
    return {
      isRunning: (name) => ACTIVE.has(this.supervisor.state(name)?.status ?? 'stopped'),
      dependencies: (names) => this.graph()?.planStartup(names).dependencies ?? {},
    };
  }

  /** What turning `previous` into `next` does to the processes as they run now. */
  plan(previous: JsonRecord, next: JsonRecord): ChangePlan {
    return planChange(previous, next, this.context());
  }

  /** Run a plan after the ones before it; resolves when it is done. */
  apply(plan: ChangePlan): Promise<void> {
    const run = this.queue.then(() => this.run(plan));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves once every plan handed over so far ran (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue;
  }

  private async run(plan: ChangePlan): Promise<void> {
    const reasons = new Map(plan.processes.map((entry) => [entry.process_name, entry.reason]));
    for (const warning of plan.warnings)
      this.logger.warn(`config change: ${warning.process_name} ${warning.detail}`);
    for (const step of plan.order) {
      const why = reasons.get(step.process_name) ?? '';
      this.logger.info(`config change: ${step.action} ${step.process_name} (${why})`);
      try {
        if (step.action === 'stop') await this.supervisor.stopByName(step.process_name);
        else await this.control.launch(step.process_name, { restart: step.action === 'restart' });
      } catch (error) {
        this.logger.error(`config change: ${step.action} ${step.process_name} failed`, { error });
      }
    }
  }
}
