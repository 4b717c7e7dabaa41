/** Child processes of the benchmarks: servers that print a ready line, and JSON-printing scripts. */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { track, untrack, stopPids } from './cleanup.js';

/** The compiled bench folder (dist/bench or <build dir>/bench). */
export const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A child that printed its ready line. */
export interface ReadyChild {
  readonly child: ChildProcess;
  readonly pid: number;
  /** The first capture group of the ready pattern. */
  readonly ready: string;
  stop(): Promise<void>;
}

/** Run `node script ...args` and wait for `pattern` on its stdout (its group 1 is returned). */
export async function startReadyChild(
  script: string,
  args: readonly string[],
  pattern: RegExp,
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; label?: string } = {},
): Promise<ReadyChild> {
  const child = spawn(process.execPath, [script, ...args], {
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`cannot start ${script}`);
  track(pid, options.label ?? script);
  let output = '';
  const ready = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} not ready:\n${output}`)),
      options.timeoutMs ?? 20_000,
    );
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = pattern.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1] ?? match[0]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${output}`));
    });
  });
  child.stdout.resume();
  child.stderr.resume();
  return {
    child,
    pid,
    ready,
    stop: async () => {
      await stopPids([pid]);
      untrack(pid);
    },
  };
}

/** Run `node script` to completion and parse the JSON object it prints on stdout. */
export async function runJsonChild(
  script: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  track(child.pid, script);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  untrack(child.pid);
  if (code !== 0) throw new Error(`${script} exited with ${code}: ${stderr.slice(-2000)}`);
  const start = stdout.indexOf('{');
  if (start < 0) throw new Error(`${script} printed no JSON: ${stdout.slice(-500)}`);
  return JSON.parse(stdout.slice(start)) as Record<string, unknown>;
}
