/**
 * `npm run profile:waves` — how the profiles behind the memory work of issue 19 are taken, so
 * anyone can take them again: the real host (every plugin, or `--plugins a,b`) with 50 disabled
 * `sleep` processes is run under `node --cpu-prof --heapsnapshot-signal=SIGWINCH`; 50 concurrent
 * start-service requests, then 50 restart-service requests; RSS and private memory after each
 * step and 10 s later; then a heap snapshot (what stays reachable: a snapshot collects garbage
 * first, so garbage shows in the RSS steps, not there); the CPU profile written at the clean
 * stop. Prints the figures and the functions with the most CPU time; the files stay in
 * `--out` (default a temp dir) for Chrome DevTools.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MAIN_JS } from '../../test/helpers/start-host.js';
import { summarizeProfile, type CpuProfile } from './profile-summary.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    plugins: { type: 'string' },
    count: { type: 'string', default: '50' },
  },
});
const count = Number(values.count);
const out = resolve(values.out ?? mkdtempSync(join(tmpdir(), 'stackd-profile-')));
mkdirSync(out, { recursive: true });
const dataDir = mkdtempSync(join(tmpdir(), 'stackd-profile-data-'));
const configPath = join(dataDir, 'stackd.json');
const blocks: Record<string, unknown> = { stackd: { supervisor: { start_check_ms: 0 } } };
for (let index = 0; index < count; index += 1)
  blocks[`bench_${index}`] = {
    enabled: false,
    process_name: `Bench ${index}`,
    command: ['sleep', '3600'],
  };
writeFileSync(configPath, JSON.stringify(blocks));

const args = [
  '--cpu-prof',
  `--cpu-prof-dir=${out}`,
  '--heapsnapshot-signal=SIGWINCH',
  MAIN_JS,
  '--port',
  '0',
  '--data-dir',
  dataDir,
  '--config',
  configPath,
  ...(values.plugins === undefined ? [] : ['--plugins', values.plugins]),
];
const host = spawn(process.execPath, args, { cwd: out, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
host.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
const url = await new Promise<string>((resolveUrl, reject) => {
  host.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    const match = /stackd listening on (http:\/\/\S+)/.exec(output);
    if (match?.[1] !== undefined) resolveUrl(match[1]);
  });
  host.once('exit', (code) => reject(new Error(`host exited with ${code}:\n${output}`)));
});

const memory = (): { rss_mib: number; anon_mib: number } => {
  const status = readFileSync(`/proc/${host.pid}/status`, 'latin1');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
  return {
    rss_mib: Math.round(kib('VmRSS') / 102.4) / 10,
    anon_mib: Math.round(kib('RssAnon') / 102.4) / 10,
  };
};
const wave = async (path: string) => {
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ process_name: `Bench ${index}` }),
      }).then((response) => response.status),
    ),
  );
  const failed = answers.filter((status) => status !== 200).length;
  if (failed > 0) throw new Error(`${path}: ${failed} of ${count} failed`);
  return Math.round(performance.now() - started);
};

const steps: Record<string, unknown> = { boot: memory() };
steps.start = { ms: await wave('/process/start-service'), ...memory() };
steps.restart = { ms: await wave('/process/restart-service'), ...memory() };
steps.idle_10s = await new Promise((done) => setTimeout(() => done(memory()), 10_000));
const snapshotsBefore = new Set(readdirSync(out));
// Not SIGUSR2: that is the host's hand-over signal (it would exit and leave the processes running).
host.kill('SIGWINCH');
// The snapshot is written synchronously by the host; wait until its file stops growing.
let snapshot: string | undefined;
for (let attempt = 0; attempt < 100 && snapshot === undefined; attempt += 1) {
  await new Promise((done) => setTimeout(done, 200));
  snapshot = readdirSync(out).find(
    (file) => file.endsWith('.heapsnapshot') && !snapshotsBefore.has(file),
  );
}
await new Promise((done) => setTimeout(done, 1000));
host.kill('SIGTERM');
const code = await new Promise<number | null>((done) => host.once('exit', done));
const profileFile = readdirSync(out).find((file) => file.endsWith('.cpuprofile'));
const profile =
  profileFile === undefined
    ? undefined
    : (JSON.parse(readFileSync(join(out, profileFile), 'utf8')) as CpuProfile);
console.log(
  JSON.stringify(
    {
      plugins: values.plugins ?? 'all',
      processes: count,
      steps,
      host_exit_code: code,
      heap_snapshot: snapshot === undefined ? null : join(out, snapshot),
      cpu_profile: profileFile === undefined ? null : join(out, profileFile),
      top_self_time: profile === undefined ? [] : summarizeProfile(profile, 20),
    },
    null,
    2,
  ),
);
