/**
 * The one environment setting that changes what every Node start costs, decided once per run.
 *
 * Node 20 reads the file `NODE_EXTRA_CA_CERTS` names while it starts, before any JavaScript runs
 * (Node 22 and 24 read it on the first TLS connection). A shell whose CA bundle is passed that
 * way (some build machines and sandboxes set it to the whole system bundle) adds the parsing of
 * every certificate in it to each Node process: the hosts, the floors, pm2, the terminal client
 * and every `node -e` child the benches supervise. On the machine these benches were written on
 * that was ~80 ms of CPU per start, larger than the adoption row's whole margin. A stackd host on
 * a user's server has it only if its owner set it; the benches measure that usual case and report
 * what the setting would cost beside it. `BENCH_KEEP_NODE_EXTRA_CA_CERTS=1` keeps it.
 */
import { spawnSync } from 'node:child_process';
import { figure, type Figure } from './report.js';
import { median } from './stats.js';

const VARIABLE = 'NODE_EXTRA_CA_CERTS';
const STARTS = 5;

/** CPU ms of one `node -e` start in `env`, from the child's own rusage at its exit. */
function startCpuMs(env: NodeJS.ProcessEnv): number {
  const script = 'const u = process.cpuUsage(); process.stdout.write(String(u.user + u.system));';
  const result = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8' });
  const micros = Number(result.stdout);
  if (result.status !== 0 || !Number.isFinite(micros))
    throw new Error(`node -e failed: ${result.stderr}`);
  return micros / 1000;
}

function medianStartCpu(env: NodeJS.ProcessEnv): number {
  return median(Array.from({ length: STARTS }, () => startCpuMs(env)));
}

/**
 * Removes the setting from this process's environment (so from everything the run spawns) unless
 * asked to keep it, and returns the figures that say what it was and what it costs a Node start.
 */
export function settleNodeStartEnv(): Figure[] {
  const value = process.env[VARIABLE];
  if (value === undefined || value === '') return [];
  const keep = process.env.BENCH_KEEP_NODE_EXTRA_CA_CERTS === '1';
  const without: NodeJS.ProcessEnv = { ...process.env };
  delete without[VARIABLE];
  const withMs = medianStartCpu(process.env);
  const withoutMs = medianStartCpu(without);
  if (!keep) delete process.env[VARIABLE];
  const where = keep
    ? 'kept for this run (BENCH_KEEP_NODE_EXTRA_CA_CERTS=1): every Node process below pays it'
    : 'removed for this run: no Node process below pays it (BENCH_KEEP_NODE_EXTRA_CA_CERTS=1 keeps it)';
  return [
    figure('environment', `node -e 0 CPU with this shell's ${VARIABLE}=${value}`, withMs, 'ms', {
      note: `median of ${STARTS}; ${where}`,
    }),
    figure('environment', `node -e 0 CPU without ${VARIABLE}`, withoutMs, 'ms', {
      note: `median of ${STARTS}; ${process.version} parses the file at every start`,
    }),
  ];
}
