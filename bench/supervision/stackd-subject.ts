/**
 * stackd as a {@link Subject}: the real host with N disabled process blocks; start and restart
 * are N concurrent POSTs of start-service / restart-service (each answers once its process is
 * running), as a dashboard's "start all" would send them.
 *
 * `start_check_ms` is 0 here: stackd's default 2 s "did it stay up" check only delays the
 * answer by a fixed time (in parallel for all processes); neither pm2 nor the spawn loop waits
 * for anything after the spawn, so the comparison is of the work, not of that policy.
 */
import type { RunningHostProcess } from '../../test/helpers/start-host.js';
import { stopPids, track, untrack } from '../lib/cleanup.js';
import { getJson, postJson, processBlocks, startBenchHost, stopHost } from '../lib/host.js';
import { waitFor } from '../lib/wait.js';
import type { Step, Subject } from './subject.js';

interface ProcessList {
  processes: { process_name: string; status: string; pid?: number | null }[];
}

async function allRunning(host: RunningHostProcess, count: number): Promise<number[]> {
  const list = await getJson<ProcessList>(host, '/process/processes');
  const running = list.processes.filter((entry) => entry.status === 'running');
  if (running.length !== count) throw new Error(`${running.length} of ${count} running`);
  return running.flatMap((entry) => (typeof entry.pid === 'number' ? [entry.pid] : []));
}

/** Start a host with `count` blocks running `command`, not started yet. */
export async function stackdSubject(
  label: string,
  count: number,
  command: readonly string[],
  plugins?: readonly string[],
): Promise<Subject & { readonly url: string }> {
  const host = await startBenchHost(
    { stackd: { supervisor: { start_check_ms: 0 } }, ...processBlocks(count, { command }) },
    plugins,
  );
  const names = Array.from({ length: count }, (_, index) => `Bench ${index}`);
  let pids: readonly number[] = [];
  const all = async (path: string): Promise<Step> => {
    const start = performance.now();
    const answers = await Promise.all(
      names.map((process_name) => postJson(host, path, { process_name })),
    );
    // 202: accepted, still starting after the route's wait (1,000 at once on a loaded machine);
    // the step ends once every process reports running.
    const failed = answers.filter((answer) => answer.status !== 200 && answer.status !== 202);
    if (failed.length > 0) throw new Error(`${path}: ${JSON.stringify(failed[0])}`);
    const now = answers.some((answer) => answer.status === 202)
      ? await waitFor(
          () => allRunning(host, count).catch(() => null),
          (running) => running !== null,
          600_000,
          250,
        ).then((running) => running ?? [])
      : await allRunning(host, count);
    const ms = performance.now() - start;
    for (const pid of pids) if (!now.includes(pid)) untrack(pid);
    for (const pid of now) track(pid, `${label} process`);
    pids = now;
    return { ms, pids: now };
  };
  return {
    label,
    url: host.url,
    supervisorPid: host.child.pid ?? Number.NaN,
    startAll: () => all('/process/start-service'),
    restartAll: () => all('/process/restart-service'),
    close: async () => {
      try {
        await stopHost(host);
      } finally {
        await stopPids(pids);
        for (const pid of pids) untrack(pid);
      }
    },
  };
}
