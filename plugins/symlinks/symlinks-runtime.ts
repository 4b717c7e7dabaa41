/**
 * The symlinks plugin's parts, built in one place: the manifest paths, the job store and runner,
 * the operations and the backup scheduler, and the exposition's job counters. `index.ts` lists
 * what the plugin registers and hands each route the part it serves.
 */
import { derivedFromStack, type JsonRecord, type PluginContext } from '../../sdk/index.js';
import { BackupScheduler } from './backup/backup-scheduler.js';
import { configuredRoots, symlinksConfigOf, type SymlinksConfig } from './config.js';
import { isAllowed } from './confinement.js';
import { JobRunner } from './jobs/job-runner.js';
import { JobStore, type JobOperation } from './jobs/job-store.js';
import { SymlinkOperations } from './operations.js';
import { SymlinkPaths } from './paths.js';

/** Everything the symlinks plugin runs, made once at register time. */
export class SymlinksRuntime {
  readonly paths: SymlinkPaths;
  readonly jobs: JobStore;
  readonly runner: JobRunner;
  readonly ops: SymlinkOperations;
  readonly scheduler: BackupScheduler;
  private readonly unsubscribe: () => void;
  private readonly sharedDocument: () => Readonly<JsonRecord>;

  constructor(private readonly ctx: PluginContext<SymlinksConfig>) {
    // Made first, so a change clears it before the listeners below read the document again.
    this.sharedDocument = derivedFromStack(ctx.stack, (document) => document);
    const config = () => this.config();
    const document = () => this.document();
    this.paths = new SymlinkPaths(ctx.host.dataDir, ctx.storage.dir, () => this.manifestDirs());
    // The database opens on first use: at start, where interrupted jobs are marked.
    this.jobs = new JobStore(() => ctx.storage.openDatabase('jobs.sqlite'));
    this.runner = new JobRunner(this.jobs, ctx.tasks, ctx.events, ctx.logger, this.jobCounters());
    this.ops = new SymlinkOperations({ config, paths: this.paths, document, jobs: this.runner });
    this.scheduler = new BackupScheduler({
      document,
      manifestPath: (raw) => this.paths.manifest(raw, 'symlink_backup_path'),
      backup: (processName, path, settings) =>
        this.ops.backup({
          backup_path: path,
          roots: settings.roots,
          include_broken: settings.includeBroken,
          process_name: processName,
        }),
      logger: ctx.logger,
    });
    this.unsubscribe = ctx.stack.onChange(() => this.scheduler.rescheduleAll());
  }

  /**
   * The slice, read from the document on every call: a POST /config change (allowed_roots above
   * all) applies to the next request, with no restart.
   */
  config(): SymlinksConfig {
    return symlinksConfigOf(this.sharedDocument(), this.ctx.config);
  }

  /**
   * The document, shared until it changes (read-only): the status and manifest routes read it
   * per request, and a copy per request was most of their cost at a thousand processes.
   */
  document(): Readonly<JsonRecord> {
    return this.sharedDocument();
  }

  start(): void {
    const { ctx, scheduler } = this;
    const interrupted = this.jobs.failInterrupted();
    if (interrupted > 0)
      ctx.logger.warn(
        `${interrupted} symlink job(s) were interrupted by the last stop; marked error`,
      );
    scheduler.rescheduleAll();
    ctx.tasks.every('symlink backup schedule', ctx.config.schedule_check_sec * 1000, () =>
      scheduler.tick(),
    );
  }

  async stop(): Promise<void> {
    this.unsubscribe();
    await this.runner.idle();
  }

  /** Manifests may live in the configured manifest dirs and in the symlink roots. */
  private manifestDirs(): string[] {
    const { manifest_dirs: manifestDirs, allowed_roots: allowed } = this.config();
    const roots = configuredRoots(this.config(), this.document());
    // A symlink tree outside the allowed roots is no place for manifests either.
    return [...manifestDirs, ...roots.filter((root) => isAllowed(root, allowed))];
  }

  /** The exposition's job counters, fed as each job ends. */
  private jobCounters(): (
    operation: JobOperation,
    outcome: 'completed' | 'failed',
    result?: unknown,
  ) => void {
    const jobCounter = this.ctx.exposition.counter<'operation' | 'outcome'>({
      name: 'stackd_symlink_jobs_total',
      help: 'Symlink jobs (repair, backup, restore) that ended, by operation and outcome',
      labelNames: ['operation', 'outcome'],
    });
    const brokenLinks = this.ctx.exposition.counter({
      name: 'stackd_symlink_broken_links_found_total',
      help: 'Symlinks whose target does not exist, as found by repair and backup jobs',
    });
    return (operation, outcome, result) => {
      jobCounter.inc({ operation, outcome });
      brokenLinks.inc({}, brokenLinksIn(result));
    };
  }
}

/** Broken links a job's result reports (repair: targets missing; backup: broken links skipped). */
function brokenLinksIn(result: unknown): number {
  if (typeof result !== 'object' || result === null) return 0;
  const counts = result as Record<string, unknown>;
  let total = 0;
  for (const key of ['skipped_nonexistent_target', 'skipped_broken']) {
    const value = counts[key];
    if (typeof value === 'number' && value > 0) total += value;
  }
  return total;
}
