/**
 * HTTP load from a separate process: wrk when it is installed, else autocannon's CLI (node) with
 * `--json`. Either way the load generator never shares an event loop with the server measured.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { track, untrack } from './cleanup.js';

/** One load run's outcome. */
export interface LoadResult {
  readonly requests_per_sec: number;
  /** Requests completed in the run (the divisor of a server's CPU per request). */
  readonly requests: number;
  readonly p99_ms: number;
  readonly p50_ms: number;
  readonly non_2xx: number;
  readonly errors: number;
}

/** Which generator this machine has. */
export function loadTool(): 'wrk' | 'autocannon' {
  try {
    execFileSync('sh', ['-c', 'command -v wrk'], { stdio: 'ignore' });
    return 'wrk';
  } catch {
    return 'autocannon';
  }
}

async function run(command: string, args: readonly string[]): Promise<string> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  track(child.pid, `load generator ${command}`);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  untrack(child.pid);
  if (code !== 0) throw new Error(`${command} exited with ${code}: ${stderr.slice(-1000)}`);
  return stdout;
}

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

async function autocannon(url: string, connections: number, seconds: number): Promise<LoadResult> {
  const cli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  const text = await run(process.execPath, [
    cli,
    '--json',
    '--no-progress',
    '-c',
    String(connections),
    '-d',
    String(seconds),
    url,
  ]);
  const result = JSON.parse(text.slice(text.indexOf('{'))) as AutocannonJson;
  return {
    requests_per_sec: Math.round(result.requests.average),
    requests: result.requests.total,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** wrk's "Latency" distribution value ("1.23ms", "850.00us", "1.02s") in ms. */
function wrkMs(text: string, label: string): number {
  const match = new RegExp(`^\\s*${label}%?\\s+([\\d.]+)(us|ms|s)`, 'm').exec(text);
  if (match?.[1] === undefined) return Number.NaN;
  const scale = match[2] === 'us' ? 0.001 : match[2] === 's' ? 1000 : 1;
  return Number(match[1]) * scale;
}

async function wrk(url: string, connections: number, seconds: number): Promise<LoadResult> {
  const text = await run('wrk', [
    '--latency',
    // A loaded two-core machine can hold a slow server's answer past wrk's 2 s default, which
    // wrk counts as a socket error; the requests are still served and measured.
    '--timeout',
    '10s',
    '-t',
    '2',
    '-c',
    String(connections),
    '-d',
    `${seconds}s`,
    url,
  ]);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(text)?.[1];
  const requests = /(\d+) requests in /.exec(text)?.[1];
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1];
  const errors = /Socket errors:.*?(\d+).*?(\d+).*?(\d+).*?(\d+)/.exec(text);
  return {
    requests_per_sec: Math.round(Number(rate)),
    requests: Number(requests ?? Number.NaN),
    p50_ms: wrkMs(text, '50'),
    p99_ms: wrkMs(text, '99'),
    non_2xx: Number(non2xx ?? 0),
    errors:
      errors === null ? 0 : errors.slice(1).reduce((sum, value) => sum + Number(value ?? 0), 0),
  };
}

/** Load `url` with `connections` connections for `seconds` seconds. */
export function loadUrl(url: string, connections: number, seconds: number): Promise<LoadResult> {
  return loadTool() === 'wrk'
    ? wrk(url, connections, seconds)
    : autocannon(url, connections, seconds);
}
