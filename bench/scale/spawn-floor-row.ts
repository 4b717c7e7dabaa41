/**
 * The spawn floor of the scale series: the supervision bench's bare spawn loop (one Node process
 * spawning every `sleep` with piped output, "running" meaning the `spawn` event) started and
 * restarted at each size in the same run, so start all and restart all have a floor to be
 * compared with at every size, measured in the same minutes as the supervisors.
 */
import { join } from 'node:path';
import { BENCH_DIR } from '../lib/children.js';
import { agentSubject } from '../supervision/agent-subject.js';

/** The spawn loop's start all and restart all at one size. */
export interface FloorRow {
  readonly processes: number;
  readonly start_ms: number;
  readonly restart_ms: number;
}

/** Start and restart `count` copies of `command` in the spawn loop, then stop them. */
export async function measureFloor(count: number, command: readonly string[]): Promise<FloorRow> {
  const subject = await agentSubject(
    'spawn loop',
    join(BENCH_DIR, 'supervision', 'spawn-floor.js'),
    count,
    command,
  );
  try {
    const start = await subject.startAll();
    if (start.pids.length !== count) throw new Error(`spawn loop: not all ${count} started`);
    const restart = await subject.restartAll();
    if (restart.pids.length !== count) throw new Error(`spawn loop: not all ${count} restarted`);
    return { processes: count, start_ms: start.ms, restart_ms: restart.ms };
  } finally {
    await subject.close();
  }
}
