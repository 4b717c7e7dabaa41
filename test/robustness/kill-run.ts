/**
 * The kill test: SIGKILL the host at seeded moments — during persisted config writes, during
 * user changes, right after it started — and restart it on the same data dir each time. At the
 * end the config must be valid JSON, the user database intact, every service running exactly
 * once, and after a clean stop nothing the host launched may be left.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '../helpers/eventually.js';
import { request } from '../helpers/http.js';
import { startHost, tempDir, writeConfig } from '../helpers/start-host.js';
import { fuzzConfig, startFuzzHost } from './fuzz-host.js';
import { Prng } from './prng.js';

/** What a kill run saw; `problems` is empty when everything held. */
export interface KillReport {
  readonly seed: number;
  readonly kills: Record<'config' | 'users' | 'start', number>;
  readonly problems: string[];
}

/** Live pids whose start environment carries this data dir's launch marker. */
export function launchedBy(dataDir: string): number[] {
  let id: string;
  try {
    id = readFileSync(join(dataDir, 'supervisor', 'supervisor-id'), 'utf8').trim();
  } catch {
    return [];
  }
  const needle = `STACKD_LAUNCH=${id}:`;
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z' || state === 'X') continue;
      const environ = readFileSync(`/proc/${name}/environ`, 'utf8');
      if (environ.split('\0').some((entry) => entry.startsWith(needle))) found.push(Number(name));
    } catch {
      /* gone or not ours */
    }
  }
  return found;
}

/** Live pids whose command line contains `program` and `tag`. */
function runningCopies(program: string, tag: string): number {
  let count = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (!argv.some((arg) => arg.endsWith(`${program}.js`)) || !argv.includes(tag)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && state !== 'X') count += 1;
    } catch {
      /* gone */
    }
  }
  return count;
}

async function hammer(
  origin: string,
  token: string,
  action: 'config' | 'users',
  prng: Prng,
  stop: AbortSignal,
): Promise<void> {
  let round = 0;
  while (!stop.aborted) {
    round += 1;
    const call =
      action === 'config'
        ? request(origin, '/config', {
            token,
            body: {
              updates: { fuzz_note: { round, pad: 'x'.repeat(prng.int(0, 200_000)) } },
              persist: true,
            },
          })
        : round % 2 === 1
          ? request(origin, '/api/auth/users', {
              token,
              body: { username: `kill-user-${round % 7}`, password: 'kill-password' },
            })
          : request(origin, `/api/auth/users/kill-user-${(round - 1) % 7}`, {
              token,
              method: 'DELETE',
            });
    await call.catch(() => undefined);
  }
}

/** SIGKILL the host `kills` times at seeded moments; then check what survived. */
export async function runKills(seed: number, kills: number): Promise<KillReport> {
  const prng = new Prng(seed);
  const tag = `kill-${seed}`;
  const dataDir = tempDir('stackd-kill-');
  const configPath = writeConfig(fuzzConfig(tag));
  const counts = { config: 0, users: 0, start: 0 };
  const problems: string[] = [];
  for (let index = 0; index < kills; index += 1) {
    const action = prng.pick(['config', 'users', 'start'] as const);
    counts[action] += 1;
    if (action === 'start') {
      const host = await startHost({ dataDir, configPath });
      await sleep(prng.int(0, 300));
      await host.stop('SIGKILL');
      continue;
    }
    const { host, accessToken } = await startFuzzHost(tag, { dataDir, configPath });
    const stop = new AbortController();
    const load = hammer(host.url, accessToken, action, prng.fork(), stop.signal);
    await sleep(prng.int(20, 400));
    await host.stop('SIGKILL');
    stop.abort();
    await load;
  }

  try {
    JSON.parse(readFileSync(configPath, 'utf8'));
  } catch (error) {
    problems.push(`the config file is not valid JSON: ${String(error)}`);
  }
  const { host, accessToken } = await startFuzzHost(tag, { dataDir, configPath }).catch(
    (error: unknown) => {
      problems.push(`the host does not start again: ${String(error)}`);
      throw error;
    },
  );
  try {
    const users = await request(host.url, '/api/auth/users', { token: accessToken });
    if (users.status !== 200) problems.push(`the user list answers ${users.status}`);
    for (const [program, name] of [
      ['long-running', 'Idle'],
      ['spawns-grandchild', 'Grandkid'],
      ['ignores-sigterm', 'Stubborn'],
    ] as const) {
      await eventually(
        async () =>
          (
            await request(host.url, `/process/service-status?process_name=${name}`, {
              token: accessToken,
            })
          ).body.status === 'running',
        { what: `${name} running`, timeoutMs: 20_000 },
      ).catch(() => problems.push(`${name} is not running after the restarts`));
      const copies = runningCopies(program, tag);
      if (copies !== 1) problems.push(`${name} runs ${copies} times`);
    }
  } finally {
    await host.stop();
  }
  const left = await eventually(() => (launchedBy(dataDir).length === 0 ? [] : undefined), {
    what: 'nothing launched left after the clean stop',
    timeoutMs: 10_000,
  }).catch(() => launchedBy(dataDir));
  if (left.length > 0) problems.push(`left running after the clean stop: pids ${left.join(', ')}`);
  return { seed, kills: counts, problems };
}
