/**
 * Runs symlink jobs in the background, one at a time in arrival order (they share the disk),
 * recording progress and the outcome in the job store, and telling people through a notable
 * event when a job ends.
 */
import { notableEvent, type EventBus, type Logger, type TaskRunner } from '../../../sdk/index.js';
import { jobFailure } from '../io-failure.js';
import { JobJournal } from './job-events.js';
import type { JobOperation, JobStore, SymlinkJob } from './job-store.js';

/** The work of one job: progress reports go to the store; the result is the answer. */
export type JobWork = (
  onProgress: (progress: object) => void,
  signal: AbortSignal,
) => Promise<Record<string, unknown>>;

/** The queue acknowledgement. */
export interface JobAck {
  readonly status: 'queued';
  readonly job_id: string;
  readonly operation: JobOperation;
}

const FIRST_STAGE: Record<JobOperation, string> = {
  symlink_repair: 'collecting',
  symlink_manifest_backup: 'collecting',
  symlink_manifest_restore: 'processing',
};

/** Queue and run jobs. */
export class JobRunner {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: JobStore,
    private readonly tasks: TaskRunner,
    private readonly events: EventBus,
    private readonly logger: Logger,
    /** Told when a job ends, with its result when it completed (the exposition's counters). */
    private readonly onFinished: (
      operation: JobOperation,
      outcome: 'completed' | 'failed',
      result?: unknown,
    ) => void = () => undefined,
  ) {}

  enqueue(
    operation: JobOperation,
    processName: string,
    metadata: Record<string, unknown>,
    work: JobWork,
  ): JobAck {
    const job = this.store.create(processName, operation, metadata);
    const run = async (signal: AbortSignal): Promise<void> => {
      const journal = new JobJournal(this.events, processName, { job_id: job.job_id, operation });
      try {
        this.store.started(job.job_id, { stage: FIRST_STAGE[operation] });
        const result = await work((progress) => {
          this.store.progressed(job.job_id, progress);
          journal.progressed(progress);
        }, signal);
        this.announce(this.store.completed(job.job_id, result));
        journal.finished('completed', result, null);
        this.onFinished(operation, 'completed', result);
      } catch (error) {
        this.fail(job.job_id, operation, error);
        journal.finished('failed', undefined, jobFailure(error).message);
        this.onFinished(operation, 'failed');
      }
    };
    this.chain = this.chain.then(() =>
      this.tasks.run(`symlink job ${job.job_id}`, run).catch(() => undefined),
    );
    return { status: 'queued', job_id: job.job_id, operation };
  }

  /** Settles when every queued job has run (tests, stop). */
  idle(): Promise<unknown> {
    return this.chain;
  }

  /** Record a failed job; a store that cannot record it (its disk is full too) is logged. */
  private fail(jobId: string, operation: JobOperation, error: unknown): void {
    const failure = jobFailure(error);
    this.logger.warn(`symlink job ${jobId} (${operation}) failed: ${failure.message}`);
    try {
      this.announce(this.store.failed(jobId, failure));
    } catch (recordError) {
      this.logger.error(`symlink job ${jobId}: its failure could not be recorded`, {
        error: recordError instanceof Error ? recordError.message : String(recordError),
      });
    }
  }

  private announce(job: SymlinkJob): void {
    const ok = job.status === 'completed';
    this.events.emit(notableEvent, {
      event_type: ok ? 'symlink.job.succeeded' : 'symlink.job.failed',
      severity: ok ? 'success' : 'critical',
      title: `Symlink ${job.operation} ${ok ? 'completed' : 'failed'} for ${job.process_name}`,
      body: ok
        ? 'The background symlink operation completed successfully.'
        : (job.error?.message ?? 'failed'),
      service_name: job.process_name,
      source: 'symlinks',
      details: { job_id: job.job_id, operation: job.operation },
    });
  }
}
