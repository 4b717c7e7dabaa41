/**
 * `npm run fuzz`: the long robustness run outside `npm test` — 10,000 hostile requests, the
 * proxy-token and request-smuggling cases, 50 kills and a disk filled up under background work
 * by default. STACKD_FUZZ_SEED, STACKD_FUZZ_REQUESTS and STACKD_FUZZ_KILLS change them.
 * Exits 1 when anything was found.
 */
import { FUZZ_KEYS, FUZZ_PROCESSES, startFuzzHost } from './fuzz-host.js';
import { describeReport, runFuzz, unhandledErrors } from './fuzz-run.js';
import { runDiskFull } from './disk-full-run.js';
import { runEdgeCases } from './edge-run.js';
import { runKills } from './kill-run.js';
import { seedFromEnv } from './prng.js';

function count(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number`);
  return value;
}

async function main(): Promise<void> {
  const seed = seedFromEnv();
  const requests = count('STACKD_FUZZ_REQUESTS', 10_000);
  const kills = count('STACKD_FUZZ_KILLS', 50);
  const started = Date.now();
  const { host, accessToken } = await startFuzzHost(`fuzz-${seed}`);
  let failed = false;
  try {
    const report = await runFuzz(
      host.url,
      accessToken,
      {
        processNames: [...FUZZ_PROCESSES, 'stackd API', 'Nobody'],
        configKeys: [...FUZZ_KEYS, 'nope'],
        usernames: ['fuzzer', 'fuzz.two', 'x', 'admin2'],
        tokenLike: ['', 'garbage', 'a.b.c', `${accessToken.slice(0, -4)}AAAA`],
      },
      { seed, requests, concurrency: 8, socketSessions: 20, timeoutMs: 15_000 },
    );
    console.log(describeReport(report));
    if (report.findings.length > 0) console.log(unhandledErrors(host.output()));
    if (report.findings.some((finding) => finding.what === 'connection failed'))
      console.log(host.output().split('\n').slice(-30).join('\n'));
    failed = report.findings.length > 0 || !report.healthyAfter;
  } finally {
    await host.stop();
  }
  const edgeProblems = await runEdgeCases();
  console.log(
    `proxy-token and smuggling cases: ${edgeProblems.length === 0 ? 'all held' : edgeProblems.join('; ')}`,
  );
  failed ||= edgeProblems.length > 0;
  if (kills > 0) {
    const report = await runKills(seed, kills);
    console.log(`kills (seed ${seed}): ${JSON.stringify(report.kills)}`);
    console.log(`problems: ${report.problems.length === 0 ? 'none' : report.problems.join('; ')}`);
    failed ||= report.problems.length > 0;
  }
  const diskFull = await runDiskFull(`fuzz-full-${seed}`);
  if (diskFull.skipped !== null) console.log(`disk full: skipped (${diskFull.skipped})`);
  else
    console.log(
      `disk full during background work: ${diskFull.problems.length === 0 ? 'no problems' : diskFull.problems.join('; ')}`,
    );
  failed ||= diskFull.problems.length > 0;
  console.log(`fuzz run took ${Math.round((Date.now() - started) / 1000)} s`);
  process.exit(failed ? 1 : 0);
}

void main();
