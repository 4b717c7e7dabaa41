/**
 * Is the process a launch record names still the one that was launched? A pid alone proves
 * nothing (the kernel reuses pids), so the record's pid must still show the recorded start time
 * (field 22 of /proc/<pid>/stat), still lead its own process group, and still carry the launch
 * marker of that launch in its start environment. Anything less is "gone": never adopted, and
 * never signalled either, since the pid may now belong to someone else's program.
 */
import { markerOf } from '../runtime/launch-marker.js';
import { isDead, readProcess, type ProcInfo } from '../runtime/proc-table.js';

/** The /proc reads verification relies on (a seam, so tests can fake a reused pid). */
export interface ProcReader {
  stat(pid: number): ProcInfo | undefined;
  marker(pid: number): string | undefined;
}

/** The real /proc. */
export const procReader: ProcReader = { stat: readProcess, marker: markerOf };

/** What a launch record must show to be adopted. */
export interface LaunchIdentity {
  readonly pid: number;
  readonly start_ticks: string;
  readonly marker: string;
}

/** The outcome: the same process, or why not. */
export type Verdict = { readonly same: true } | { readonly same: false; readonly reason: string };

/** Check a recorded launch against the live process table. */
export function verifyLaunch(record: LaunchIdentity, reader: ProcReader = procReader): Verdict {
  const row = reader.stat(record.pid);
  if (row === undefined || isDead(row)) return { same: false, reason: 'not running' };
  if (record.start_ticks === '' || row.startTicks !== record.start_ticks)
    return { same: false, reason: 'pid reused (start time differs)' };
  if (row.pgrp !== record.pid) return { same: false, reason: 'no longer leads its process group' };
  if (reader.marker(record.pid) !== record.marker)
    return { same: false, reason: 'launch marker missing or different' };
  return { same: true };
}
