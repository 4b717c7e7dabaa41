/**
 * The host the fuzzer and the kill test run against: every built-in plugin, authentication on
 * with an administrator, and a stack of fixture processes that are idle, spawn grandchildren,
 * ignore SIGTERM, crash-loop, or fail to start.
 */
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from '../helpers/http.js';
import { program } from '../plugins/supervisor/support/processes.js';
import {
  startHost,
  type RunningHostProcess,
  type StartHostOptions,
} from '../helpers/start-host.js';

/** Process names of the fuzz stack (the fuzzer aims requests at them). */
export const FUZZ_PROCESSES = ['Idle', 'Grandkid', 'Stubborn', 'Flaky', 'Broken'] as const;
/** Config keys of the fuzz stack's blocks. */
export const FUZZ_KEYS = ['idle', 'grandkid', 'stubborn', 'flaky', 'broken'] as const;

const node = (name: string, args: readonly string[] = []): string[] => [
  'node',
  program(name),
  ...args,
];

/**
 * A small symlink tree in a temp dir: the only place the symlinks plugin may touch during a
 * fuzz run (a hostile rule with roots ["/"] and dry_run false would rewrite the machine's links).
 */
function symlinkSandbox(): string {
  const root = mkdtempSync(join(tmpdir(), 'stackd-fuzz-links-'));
  mkdirSync(join(root, 'library'));
  symlinkSync('/nowhere/a.mkv', join(root, 'library', 'a.mkv'));
  return root;
}

/** The configuration document, with `tag` on every command line (to find its processes). */
export function fuzzConfig(tag: string): Record<string, unknown> {
  const sandbox = symlinkSandbox();
  return {
    stackd: {
      api_service: { enabled: true, process_name: 'stackd API', log_level: 'WARNING' },
      symlinks: { allowed_roots: [sandbox], default_roots: [join(sandbox, 'library')] },
      supervisor: { start_check_ms: 300, shutdown_budget_sec: 5 },
      auth: { scrypt_cost_log2: 14 },
    },
    idle: { enabled: true, process_name: 'Idle', command: node('long-running', ['--tag', tag]) },
    grandkid: {
      enabled: true,
      process_name: 'Grandkid',
      command: node('spawns-grandchild', ['--tag', tag]),
      stop_timeout: 2,
    },
    stubborn: {
      enabled: true,
      process_name: 'Stubborn',
      command: node('ignores-sigterm', ['--tag', tag]),
      stop_timeout: 1,
    },
    flaky: {
      enabled: true,
      process_name: 'Flaky',
      command: node('crashes', ['--after', '800', '--tag', tag]),
      restart_policy: { base_sec: 0.5, max_restarts: 1000, window_seconds: 60 },
    },
    broken: {
      enabled: false,
      process_name: 'Broken',
      command: node('crashes', ['--code', '4', '--tag', tag]),
      auto_restart: false,
    },
  };
}

/** A running fuzz host and the administrator's tokens. */
export interface FuzzHost {
  readonly host: RunningHostProcess;
  readonly accessToken: string;
  readonly refreshToken: string;
}

/** Start (or restart, on an existing data dir and config) the fuzz host, signed in as admin. */
export async function startFuzzHost(
  tag: string,
  options: Partial<StartHostOptions> = {},
): Promise<FuzzHost> {
  const host = await startHost({ config: fuzzConfig(tag), ...options });
  const credentials = { username: 'admin', password: 'admin-password' };
  let signedIn = await request(host.url, '/api/auth/login', { body: credentials });
  if (signedIn.status !== 200)
    signedIn = await request(host.url, '/api/auth/setup', { body: credentials });
  if (signedIn.status !== 200) {
    await host.stop('SIGKILL');
    throw new Error(`cannot sign in to the fuzz host: ${signedIn.status} ${signedIn.text}`);
  }
  return {
    host,
    accessToken: signedIn.body.access_token as string,
    refreshToken: signedIn.body.refresh_token as string,
  };
}
