/** GET /process/symlink-job-status and /process/symlink-job-latest. */
import { NotFoundError, defineRoute } from '../../../sdk/index.js';
import type { JobStore } from '../jobs/job-store.js';
import { Errors, Job, JobLatestBody, JobLatestQuery, JobStatusQuery } from '../schemas.js';
import { SYMLINK_JOB_NOT_FOUND } from '../errors.js';

export function jobStatusRoute(jobs: JobStore) {
  return defineRoute({
    method: 'GET',
    path: '/process/symlink-job-status',
    summary: 'One symlink job (persisted: it survives a restart)',
    description:
      'A job that was queued or running when the host stopped reads status error with the reason. Unknown job → 404.',
    tags: ['symlinks'],
    capability: 'symlink_job_status',
    schema: { query: JobStatusQuery, response: { 200: Job, ...Errors.notFound } },
    handler: ({ query }) => {
      const job = jobs.get(query.job_id);
      if (job === undefined)
        throw new NotFoundError(SYMLINK_JOB_NOT_FOUND, 'Symlink job not found', {
          field: 'job_id',
        });
      return job;
    },
  });
}

export function jobLatestRoute(jobs: JobStore) {
  return defineRoute({
    method: 'GET',
    path: '/process/symlink-job-latest',
    summary: 'The newest symlink job of a process',
    description:
      'Names compare without spaces and case; operation blank means any; active_only (default true) keeps queued and running jobs. {"job": null} when there is none.',
    tags: ['symlinks'],
    capability: 'symlink_job_latest',
    schema: { query: JobLatestQuery, response: JobLatestBody },
    handler: ({ query }) => ({
      job: jobs.latest(query.process_name, query.operation.trim(), query.active_only),
    }),
  });
}
