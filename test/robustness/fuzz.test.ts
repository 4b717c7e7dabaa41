/**
 * The fuzzer in `npm test` (fixed seed; STACKD_FUZZ_SEED picks another): about a thousand
 * hostile requests over every route and stream, no 5xx, no hang, a healthy host afterwards.
 * The long run is `npm run fuzz`.
 */
import test from 'ava';
import { FUZZ_KEYS, FUZZ_PROCESSES, startFuzzHost } from './fuzz-host.js';
import { describeReport, runFuzz, unhandledErrors } from './fuzz-run.js';
import { seedFromEnv } from './prng.js';

test('a thousand hostile requests: no 5xx, no hang, still serving', async (t) => {
  const seed = seedFromEnv();
  const { host, accessToken } = await startFuzzHost(`fuzz-${seed}`);
  t.teardown(() => host.stop());
  const report = await runFuzz(
    host.url,
    accessToken,
    {
      processNames: [...FUZZ_PROCESSES, 'stackd API', 'Nobody'],
      configKeys: [...FUZZ_KEYS, 'nope'],
      usernames: ['fuzzer', 'fuzz.two', 'x', 'admin2'],
      tokenLike: ['', 'garbage', 'a.b.c', `${accessToken.slice(0, -4)}AAAA`],
    },
    { seed, requests: 1_000, concurrency: 4, socketSessions: 3, timeoutMs: 15_000 },
  );
  t.log(describeReport(report));
  if (report.findings.length > 0) t.log(unhandledErrors(host.output()));
  t.deepEqual(report.findings, [], describeReport(report));
  t.true(report.healthyAfter, 'the host still serves /health and the process list');
  t.true(report.sent >= 1_000);
});
