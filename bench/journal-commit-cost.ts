/**
 * `node dist/bench/journal-commit-cost.js [COMMITS] [EVENTS]`: the journal's store alone, in this
 * process, committing COMMITS (default 2,000) batches of EVENTS (default 20, the journal bench's
 * burst) events each, as the host does at 1,000 events/s: append, commit, hand the batch to a
 * listener. Prints this process's CPU per commit (user and system) and per 1,000 events as JSON,
 * with the load average: the part of the host's CPU figure that SQLite and the store cost, without
 * the sockets and the HTTP source around it, so a change to the store can be compared on a loaded
 * machine (run it several times, alternating the builds compared).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournalStore } from '../core/journal/journal-store.js';

const commits = Number(process.argv[2] ?? 2000);
const events = Number(process.argv[3] ?? 20);
// Warm-up commits: JIT and SQLite's page cache settle before the measured ones.
const WARMUP = 200;

const dir = mkdtempSync(join(tmpdir(), 'journal-commit-cost-'));
const store = new JournalStore(
  join(dir, 'events.db'),
  { commitIntervalMs: 0, maxEvents: 10_000_000, maxAgeMs: 86_400_000 },
  (error) => {
    throw error;
  },
);
let delivered = 0;
store.subscribe((batch) => {
  delivered += batch.length;
});

function commitBatches(count: number): void {
  for (let batch = 0; batch < count; batch += 1) {
    for (let n = 0; n < events; n += 1) store.append('test.tick', 'live', { n });
    store.flush();
  }
}

try {
  commitBatches(WARMUP);
  const before = process.cpuUsage();
  commitBatches(commits);
  const cpu = process.cpuUsage(before);
  if (delivered !== (WARMUP + commits) * events) throw new Error(`delivered ${delivered}`);
  console.log(
    JSON.stringify({
      commits,
      events_per_commit: events,
      user_us_per_commit: Math.round(cpu.user / commits),
      system_us_per_commit: Math.round(cpu.system / commits),
      cpu_ms_per_1000_events: Number(((cpu.user + cpu.system) / (commits * events)).toFixed(1)),
      load_average: loadavg().map((value) => Number(value.toFixed(2))),
    }),
  );
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
