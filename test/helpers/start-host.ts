/**
 * Start the real host (`node dist/host/main.js`) on port 0 with its own temp data dir, wait for
 * the listening line, and stop it with SIGTERM. Every e2e test uses this.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** Absolute path of the compiled entry point. */
export const MAIN_JS = join(here, '..', '..', 'host', 'main.js');
/** Absolute path of the compiled test fixtures folder (`dist/test/fixtures`). */
export const FIXTURES_DIR = join(here, '..', 'fixtures');

/** Options of {@link startHost}. */
export interface StartHostOptions {
  /** A config document written to a temp file and passed with --config. */
  readonly config?: Record<string, unknown>;
  /** An existing config path instead (takes precedence over `config`). */
  readonly configPath?: string;
  /** `--plugins` value; omit for every built-in. */
  readonly plugins?: readonly string[];
  readonly dataDir?: string;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly extraArgs?: readonly string[];
  /** How long to wait for the listening line (default 20 s). */
  readonly bootTimeoutMs?: number;
  /** Another build's entry point instead of this one's (an upgrade from an older host). */
  readonly mainJs?: string;
}

/** A running host. */
export interface RunningHostProcess {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly configPath: string | undefined;
  readonly child: ChildProcess;
  /** Everything the host wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM and wait; resolves with the exit code (null if killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A fresh temp directory. */
export function tempDir(prefix = 'stackd-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Write a config document into a fresh temp dir; returns its path. */
export function writeConfig(
  config: Record<string, unknown>,
  dir = tempDir('stackd-config-'),
): string {
  const path = join(dir, 'stackd.json');
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return path;
}

const running = new Set<ChildProcess>();
let reaperInstalled = false;

/**
 * Hosts must not outlive a test worker that ends early (a failed assertion before stop(), a
 * timeout): SIGTERM lets each one stop its own processes as it does in production.
 */
function installReaper(): void {
  if (reaperInstalled) return;
  reaperInstalled = true;
  const reap = (): void => {
    for (const child of running) child.kill('SIGTERM');
  };
  process.once('exit', reap);
  process.once('SIGTERM', () => {
    reap();
    process.exit(143);
  });
}

/**
 * How long a boot may take: the test's own figure, else 20 s. `STACKD_TEST_BOOT_TIMEOUT_MS`
 * raises the floor on a machine loaded by other work, where a boot alone can take 20 s.
 */
function bootTimeoutMs(options: StartHostOptions): number {
  const floor = Number(process.env.STACKD_TEST_BOOT_TIMEOUT_MS ?? 0) || 0;
  return Math.max(options.bootTimeoutMs ?? 20_000, floor);
}

/** Start the host and wait until it listens. Rejects with the host's output when it fails. */
export async function startHost(options: StartHostOptions = {}): Promise<RunningHostProcess> {
  const dataDir = options.dataDir ?? tempDir('stackd-data-');
  const configPath =
    options.configPath ?? (options.config === undefined ? undefined : writeConfig(options.config));
  const args = [
    options.mainJs ?? MAIN_JS,
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--data-dir',
    dataDir,
  ];
  if (configPath !== undefined) args.push('--config', configPath);
  if (options.plugins !== undefined) args.push('--plugins', options.plugins.join(','));
  args.push(...(options.extraArgs ?? []));
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? dataDir,
    env: { ...process.env, STACKD_VALIDATE_RESPONSES: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  installReaper();
  running.add(child);
  child.once('close', () => running.delete(child));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  // 'close', not 'exit': it fires once stdout and stderr are drained, so output() is complete.
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => resolve(code)),
  );

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A host that never listened is of no use to the test: it must not outlive the failure
      // (its children would keep running until the test process exits).
      child.kill('SIGTERM');
      reject(new Error(`host did not listen within ${bootTimeoutMs(options)} ms:\n${output}`));
    }, bootTimeoutMs(options));
    const onData = (): void => {
      const match = /stackd listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`host exited with ${code} before listening:\n${output}`));
    });
  });
  let stopped: Promise<number | null> | undefined;
  return {
    url,
    port: Number(new URL(url).port),
    dataDir,
    configPath,
    child,
    output: () => output,
    stop: (signal = 'SIGTERM') => {
      if (stopped === undefined) {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        stopped = exited;
      }
      return stopped;
    },
  };
}
