/**
 * The symlink jobs' journal events: started, progress (at most one a second per job, so a scan
 * of a million links stays a few hundred events) and finished, each with the job's counts.
 */
import { defineEventKind, StringEnum, Type, type EventBus } from '../../../sdk/index.js';
import type { JobOperation } from './job-store.js';

const PROGRESS_EVERY_MS = 1000;

const Operation = StringEnum([
  'symlink_repair',
  'symlink_manifest_backup',
  'symlink_manifest_restore',
] as const);

const Counts = Type.Record(Type.String(), Type.Integer(), {
  description: 'The numeric fields of the job progress (processed, total, changed, errors, …).',
});

const JobFields = {
  job_id: Type.String(),
  operation: Operation,
};

export const jobStarted = defineEventKind({
  kind: 'symlink.job.started',
  description: 'A queued symlink job began to run.',
  subject: 'The process the job is for.',
  data: Type.Object(JobFields),
});

export const jobProgress = defineEventKind({
  kind: 'symlink.job.progress',
  description: 'A running symlink job progressed (at most one event a second per job).',
  subject: 'The process the job is for.',
  data: Type.Object({ ...JobFields, stage: Type.String(), counts: Counts }),
});

export const jobFinished = defineEventKind({
  kind: 'symlink.job.finished',
  description: 'A symlink job ended: completed or failed, with its last counts.',
  subject: 'The process the job is for.',
  data: Type.Object({
    ...JobFields,
    outcome: StringEnum(['completed', 'failed'] as const),
    counts: Counts,
    error: Type.Union([Type.String(), Type.Null()]),
    duration_ms: Type.Integer({ minimum: 0 }),
  }),
});

/** The job kinds, declared together. */
export const JOB_EVENT_KINDS = [jobStarted, jobProgress, jobFinished] as const;

/** One job's journal: remembers its last counts and when it last reported progress. */
export class JobJournal {
  private counts: Record<string, number> = {};
  private stage = '';
  private lastProgressAt = Number.NEGATIVE_INFINITY;
  private readonly startedAt = performance.now();

  constructor(
    private readonly events: EventBus,
    private readonly subject: string,
    private readonly job: { readonly job_id: string; readonly operation: JobOperation },
  ) {
    events.publish(jobStarted, { subject, data: { ...job } });
  }

  progressed(progress: object): void {
    this.counts = countsOf(progress);
    const stage = (progress as { stage?: unknown }).stage;
    if (typeof stage === 'string') this.stage = stage;
    const now = performance.now();
    if (now - this.lastProgressAt < PROGRESS_EVERY_MS) return;
    this.lastProgressAt = now;
    this.events.publish(jobProgress, {
      subject: this.subject,
      data: { ...this.job, stage: this.stage, counts: this.counts },
    });
  }

  finished(outcome: 'completed' | 'failed', result: unknown, error: string | null): void {
    const counts = { ...this.counts, ...countsOf(result) };
    this.events.publish(jobFinished, {
      subject: this.subject,
      data: {
        ...this.job,
        outcome,
        counts,
        error,
        duration_ms: Math.round(performance.now() - this.startedAt),
      },
    });
  }
}

/** The integer fields of a progress or result object. */
function countsOf(value: unknown): Record<string, number> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, number] => Number.isInteger(entry[1])),
  );
}
