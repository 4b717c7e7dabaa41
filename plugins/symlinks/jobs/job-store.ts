/**
 * Symlink jobs in SQLite (docs/decisions.md §19), so `job-status` survives a restart: a job that was
 * queued or running when the host stopped is marked `error` at the next start. Timestamps are
 * integer epoch seconds as in the reference; finished jobs older than a day are dropped and at
 * most 500 are kept.
 */
import { randomUUID } from 'node:crypto';
import type { Database, SqlRow } from '../../../sdk/index.js';
import type { JobFailure } from '../io-failure.js';

/** The three job operations. */
export type JobOperation =
  'symlink_repair' | 'symlink_manifest_backup' | 'symlink_manifest_restore';
/** Job statuses, as the API reports them. */
export type JobStatus = 'queued' | 'running' | 'completed' | 'error';

/** A job as the API shows it. */
export interface SymlinkJob {
  readonly job_id: string;
  readonly process_name: string;
  readonly operation: string;
  readonly status: JobStatus;
  readonly created_at: number;
  readonly updated_at: number;
  readonly started_at?: number;
  readonly finished_at?: number;
  readonly metadata: Record<string, unknown>;
  readonly progress?: Record<string, unknown>;
  readonly result: Record<string, unknown> | null;
  readonly error: JobFailure | null;
}

interface JobRow extends SqlRow {
  job_id: string;
  process_name: string;
  operation: string;
  status: string;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
  metadata: string;
  progress: string | null;
  result: string | null;
  error: string | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS symlink_jobs (
  job_id       TEXT PRIMARY KEY NOT NULL,
  process_name TEXT NOT NULL,
  operation    TEXT NOT NULL,
  status       TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  started_at   INTEGER,
  finished_at  INTEGER,
  metadata     TEXT NOT NULL,
  progress     TEXT,
  result       TEXT,
  error        TEXT
);
CREATE INDEX IF NOT EXISTS symlink_jobs_updated ON symlink_jobs (updated_at);`;

const DAY_SEC = 24 * 60 * 60;
const KEEP = 500;
const INTERRUPTED =
  'The host stopped while this job was running; nothing after that point was done. Run it again.';

const nowSec = (): number => Math.floor(Date.now() / 1000);

/** Lower-case without spaces: how job-latest compares process names. */
export function normalizedName(name: string): string {
  return name.replace(/\s+/g, '').toLowerCase();
}

function toJob(row: JobRow): SymlinkJob {
  return {
    job_id: row.job_id,
    process_name: row.process_name,
    operation: row.operation,
    status: row.status as JobStatus,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.started_at === null ? {} : { started_at: row.started_at }),
    ...(row.finished_at === null ? {} : { finished_at: row.finished_at }),
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    ...(row.progress === null
      ? {}
      : { progress: JSON.parse(row.progress) as Record<string, unknown> }),
    result: row.result === null ? null : (JSON.parse(row.result) as Record<string, unknown>),
    error: row.error === null ? null : (JSON.parse(row.error) as JobFailure),
  };
}

/** The persisted jobs; the database opens on first use (after the plugin started). */
export class JobStore {
  private opened: Database | undefined;

  constructor(private readonly open: () => Database) {}

  private get db(): Database {
    if (this.opened === undefined) {
      this.opened = this.open();
      this.opened.exec(SCHEMA);
    }
    return this.opened;
  }

  /** At start: what a previous host left queued or running failed; returns how many. */
  failInterrupted(): number {
    return this.db.run(
      `UPDATE symlink_jobs SET status = 'error', error = ?, updated_at = ?, finished_at = ?
       WHERE status IN ('queued', 'running')`,
      [JSON.stringify({ message: INTERRUPTED }), nowSec(), nowSec()],
    ).changes;
  }

  create(
    processName: string,
    operation: JobOperation,
    metadata: Record<string, unknown>,
  ): SymlinkJob {
    const now = nowSec();
    const id = randomUUID().replace(/-/g, '');
    this.db.transaction(() => {
      this.db.run(
        `DELETE FROM symlink_jobs WHERE status IN ('completed', 'error') AND updated_at < ?`,
        [now - DAY_SEC],
      );
      this.db.run(
        `DELETE FROM symlink_jobs WHERE job_id NOT IN
           (SELECT job_id FROM symlink_jobs ORDER BY updated_at DESC LIMIT ?)`,
        [KEEP - 1],
      );
      this.db.run(
        `INSERT INTO symlink_jobs (job_id, process_name, operation, status, created_at, updated_at, metadata)
         VALUES (?, ?, ?, 'queued', ?, ?, ?)`,
        [id, processName, operation, now, now, JSON.stringify(metadata)],
      );
    });
    return this.require(id);
  }

  started(id: string, progress: object): void {
    const now = nowSec();
    this.db.run(
      `UPDATE symlink_jobs SET status = 'running', started_at = ?, updated_at = ?, progress = ? WHERE job_id = ?`,
      [now, now, JSON.stringify(progress), id],
    );
  }

  progressed(id: string, progress: object): void {
    this.db.run(`UPDATE symlink_jobs SET progress = ?, updated_at = ? WHERE job_id = ?`, [
      JSON.stringify(progress),
      nowSec(),
      id,
    ]);
  }

  completed(id: string, result: Record<string, unknown>): SymlinkJob {
    const now = nowSec();
    this.db.run(
      `UPDATE symlink_jobs SET status = 'completed', result = ?, error = NULL, updated_at = ?, finished_at = ? WHERE job_id = ?`,
      [JSON.stringify(result), now, now, id],
    );
    return this.require(id);
  }

  failed(id: string, failure: JobFailure): SymlinkJob {
    const now = nowSec();
    this.db.run(
      `UPDATE symlink_jobs SET status = 'error', error = ?, updated_at = ?, finished_at = ? WHERE job_id = ?`,
      [JSON.stringify(failure), now, now, id],
    );
    return this.require(id);
  }

  get(id: string): SymlinkJob | undefined {
    const row = this.db.get<JobRow>('SELECT * FROM symlink_jobs WHERE job_id = ?', [id]);
    return row === undefined ? undefined : toJob(row);
  }

  /** The newest job of a process (and operation, unless blank), active ones only if asked. */
  latest(processName: string, operation: string, activeOnly: boolean): SymlinkJob | null {
    const rows = this.db.all<JobRow>(
      `SELECT * FROM symlink_jobs
       WHERE (? = '' OR lower(operation) = ?) AND (? = 0 OR status IN ('queued', 'running'))
       ORDER BY updated_at DESC, rowid DESC`,
      [operation, operation.toLowerCase(), activeOnly ? 1 : 0],
    );
    const wanted = normalizedName(processName);
    const row = rows.find((candidate) => normalizedName(candidate.process_name) === wanted);
    return row === undefined ? null : toJob(row);
  }

  private require(id: string): SymlinkJob {
    const job = this.get(id);
    if (job === undefined) throw new Error(`symlink job ${id} vanished`);
    return job;
  }
}
