/**
 * Request sync: a fake primary with 10,000 requests (paged) and two fake subordinates. Measures
 * the first full sync and one idle poll's host CPU; the idle poll must write nothing.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeSeerr } from '../test/e2e/sync/fake-seerr.js';
import { eventually } from '../test/helpers/eventually.js';
import { builtinPlugin } from '../test/helpers/fixture-paths.js';
import { getJson, startBenchHost, stopHost } from './lib/host.js';
import { cpuMs } from './lib/proc-sample.js';
import { figure, type Figure } from './lib/report.js';

const COUNT = 10_000;

export async function syncBench(): Promise<{
  figures: Figure[];
  details: Record<string, unknown>;
}> {
  const primary = await startFakeSeerr('p');
  const subA = await startFakeSeerr('a');
  const subB = await startFakeSeerr('b');
  for (let index = 0; index < COUNT; index += 1) primary.add(index % 2 ? 'movie' : 'tv', index + 1);
  const started = performance.now();
  const host = await startBenchHost(
    {
      stackd: {
        sync: {
          enabled: true,
          poll_interval_seconds: 5,
          primary: { url: primary.url, api_key: 'p' },
          subordinates: [
            { label: 'a', url: subA.url, api_key: 'a' },
            { label: 'b', url: subB.url, api_key: 'b' },
          ],
        },
      },
    },
    [builtinPlugin('sync')],
  );
  try {
    const stateFile = join(host.dataDir, 'sync', 'state.json');
    type Status = { last_poll?: string };
    // Each subordinate gets one poll interval per cycle; a backlog takes several cycles.
    await eventually(() => subA.requests.length === COUNT && subB.requests.length === COUNT, {
      timeoutMs: 600_000,
      intervalMs: 100,
      what: 'first full sync',
    });
    const firstPoll = await eventually(
      async () => {
        const status = await getJson<
          Status & { subordinates?: Record<string, { synced: number }> }
        >(host, '/request-sync/status');
        const synced = Object.values(status.subordinates ?? {}).every(
          (sub) => sub.synced === COUNT,
        );
        return synced ? status.last_poll : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: 'the full sync saved' },
    );
    const firstSyncS = (performance.now() - started) / 1000;
    if (subA.requests.length !== COUNT || subB.requests.length !== COUNT)
      throw new Error(`incomplete sync: ${subA.requests.length}/${subB.requests.length}`);
    const nextPoll = async (after: string | undefined, what: string) => {
      const lists = primary.listCalls;
      return eventually(
        async () => {
          const poll = (await getJson<Status>(host, '/request-sync/status')).last_poll;
          return primary.listCalls > lists && poll !== after ? poll : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 100, what },
      );
    };
    // The cycle that completed the sync may still be saving when its status shows: one poll
    // after it settles that, and the poll after that one is the idle poll measured.
    const settledPoll = await nextPoll(firstPoll, 'a poll after the full sync');
    const mtime = statSync(stateFile).mtimeMs;
    const pid = host.child.pid ?? 0;
    const cpuBefore = cpuMs(pid);
    await nextPoll(settledPoll, 'idle poll');
    const idleCpuMs = cpuMs(pid) - cpuBefore;
    const wrote = statSync(stateFile).mtimeMs !== mtime;
    return {
      figures: [
        figure('sync', 'first full sync, 10k requests × 2 subordinates', firstSyncS, 's'),
        figure('sync', 'idle poll host CPU', idleCpuMs, 'ms', { goal: { op: '<', limit: 1000 } }),
        figure('sync', 'idle poll state writes', wrote ? 1 : 0, 'writes', {
          goal: { op: '<=', limit: 0 },
        }),
      ],
      details: {
        requests: COUNT,
        first_sync_s: firstSyncS,
        idle_cpu_ms: idleCpuMs,
        idle_wrote: wrote,
      },
    };
  } finally {
    await stopHost(host);
    await Promise.all([primary.close(), subA.close(), subB.close()]);
  }
}
