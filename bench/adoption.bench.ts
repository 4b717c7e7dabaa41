/**
 * Adoption, runnable alone: `node dist/bench/adoption.bench.js [processes=50]`. Time from host
 * start to every process running when started from scratch, vs. to every process adopted after
 * a host SIGKILL (goal ≤ 0.2×); then lines lost by a process printing every 10 ms through a 5 s
 * gap with no host. Loopback only; the real host built in dist/.
 */
import { request } from '../test/helpers/http.js';
import { startHost, type RunningHostProcess } from '../test/helpers/start-host.js';
import { builtinPlugin } from '../test/helpers/fixture-paths.js';

const count = Number(process.argv[2] ?? 50);
const SLEEPER = 'process.on("SIGTERM", () => process.exit(0)); setInterval(() => {}, 60000);';
const PRINTER = 'let n = 0; setInterval(() => console.log("line " + n++), 10);';

interface Listed {
  processes: { process_name: string; status: string; pid: number | null }[];
}

function config(): Record<string, unknown> {
  const blocks: Record<string, unknown> = {};
  for (let i = 0; i < count; i += 1)
    blocks[`p${i}`] = { enabled: true, process_name: `P${i}`, command: ['node', '-e', SLEEPER] };
  blocks.printer = { enabled: true, process_name: 'Printer', command: ['node', '-e', PRINTER] };
  return {
    stackd: {
      api_service: { enabled: true, process_name: 'stackd API', log_level: 'INFO' },
      supervisor: { start_check_ms: 300 },
    },
    ...blocks,
  };
}

async function allRunning(host: RunningHostProcess): Promise<void> {
  for (;;) {
    const { body } = await request<Listed>(host.url, '/process/processes');
    if (body.processes.filter((entry) => entry.status === 'running').length >= count + 2) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function lines(host: RunningHostProcess): Promise<number[]> {
  const { body } = await request<{ log: string }>(host.url, '/logs?process_name=Printer');
  return body.log
    .split('\n')
    .filter((line) => line.startsWith('line '))
    .map((line) => Number(line.slice(5)));
}

const plugins = [builtinPlugin('supervisor')];
let began = performance.now();
const first = await startHost({ config: config(), plugins });
await allRunning(first);
const fresh = performance.now() - began;
await first.stop('SIGKILL');
await new Promise((resolve) => setTimeout(resolve, 5_000));
began = performance.now();
const options = { configPath: first.configPath as string, dataDir: first.dataDir, plugins };
const second = await startHost(options);
await allRunning(second);
const adopted = performance.now() - began;
await new Promise((resolve) => setTimeout(resolve, 500));
const printed = await lines(second);
const last = printed.at(-1) ?? 0;
const lost = last + 1 - new Set(printed).size;
const repeated = printed.length - new Set(printed).size;
await second.stop();
process.stdout.write(
  `${JSON.stringify({
    processes: count,
    fresh_start_ms: Math.round(fresh),
    adoption_ms: Math.round(adopted),
    ratio: Math.round((adopted / fresh) * 100) / 100,
    gap_s: 5,
    lines_printed: last + 1,
    lines_lost: lost,
    lines_repeated: repeated,
  })}\n`,
);
