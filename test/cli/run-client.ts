/** Run the real `stackd` bin (the package's `bin`) as a user would, and a host for it to reach. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES_DIR, tempDir } from '../helpers/start-host.js';

const REPO = join(FIXTURES_DIR, '..', '..', '..');

/** Absolute path of the file package.json's `bin` names: what `stackd` runs once installed. */
export const BIN_JS = join(
  REPO,
  (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { bin: { stackd: string } }).bin
    .stackd,
);

export interface ClientResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Options of {@link runClient}. */
export interface RunOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly input?: string;
  readonly cwd?: string;
}

/** A config home of its own, so tests never read or write the user's credentials. */
export function clientEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return { STACKD_URL: url, XDG_CONFIG_HOME: tempDir('stackd-cli-home-'), NO_COLOR: '1', ...extra };
}

/** Run `stackd ARGS…` to its exit. */
export function runClient(
  args: readonly string[],
  options: RunOptions = {},
): Promise<ClientResult> {
  const started = Date.now();
  const child = spawnClient(args, options);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin?.end(options.input ?? '');
  return new Promise((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started })),
  );
}

/** Start `stackd ARGS…` and leave it running (for `logs -f`). */
export function spawnClient(args: readonly string[], options: RunOptions = {}): ChildProcess {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  delete env.STACKD_TOKEN;
  if (options.env?.STACKD_TOKEN !== undefined) env.STACKD_TOKEN = options.env.STACKD_TOKEN;
  return spawn(process.execPath, [BIN_JS, ...args], {
    cwd: options.cwd ?? tempDir('stackd-cli-cwd-'),
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** A process that prints `<pid>-<n>` every `everyMs` (a unique, ordered line each time). */
export function counterBlock(name: string, logFile: string, everyMs = 20): Record<string, unknown> {
  const script = `let n=0;setInterval(()=>console.log(process.pid+'-'+(n++)),${everyMs})`;
  return {
    enabled: true,
    process_name: name,
    command: [process.execPath, '-e', script],
    log_file: logFile,
  };
}
