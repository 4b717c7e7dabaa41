/**
 * The stackd host under benchmark: the real `host/main.js` started by the test helper, with
 * response validation off (as users run it) and every built-in plugin unless told otherwise.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { startHost, type RunningHostProcess } from '../../test/helpers/start-host.js';
import { track, untrack } from './cleanup.js';

/** A trivial supervised program: one node process that sleeps. */
export const IDLE_COMMAND: readonly string[] = [process.execPath, '-e', 'setInterval(()=>{},1e9)'];

/** `count` process blocks named `<prefix> <n>` running `command`. */
export function processBlocks(
  count: number,
  options: { prefix?: string; enabled?: boolean; command?: readonly string[] } = {},
): Record<string, unknown> {
  const blocks: Record<string, unknown> = {};
  for (let index = 0; index < count; index += 1) {
    blocks[`bench_${index}`] = {
      enabled: options.enabled ?? false,
      process_name: `${options.prefix ?? 'Bench'} ${index}`,
      command: options.command ?? IDLE_COMMAND,
    };
  }
  return blocks;
}

/** Start a host on `config`; its PID is tracked until {@link stopHost}. */
export async function startBenchHost(
  config: Record<string, unknown>,
  plugins?: readonly string[],
): Promise<RunningHostProcess> {
  const host = await startHost({
    config,
    env: { STACKD_VALIDATE_RESPONSES: '0' },
    // Booting with 50 processes on a loaded 2-core machine took over the helper's 20 s default.
    bootTimeoutMs: 60_000,
    ...(plugins === undefined ? {} : { plugins }),
  });
  track(host.child.pid, 'stackd host');
  return host;
}

/** SIGTERM the host (it stops its processes), forget its PID, remove its temp dirs. */
export async function stopHost(host: RunningHostProcess): Promise<void> {
  await host.stop();
  untrack(host.child.pid);
  rmSync(host.dataDir, { recursive: true, force: true });
  if (host.configPath !== undefined)
    rmSync(dirname(host.configPath), { recursive: true, force: true });
}

/** GET a JSON body from the host. */
export async function getJson<T>(host: RunningHostProcess, path: string): Promise<T> {
  const response = await fetch(`${host.url}${path}`);
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** POST a JSON body; returns the status and the parsed answer. */
export async function postJson(
  host: RunningHostProcess,
  path: string,
  body: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${host.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
