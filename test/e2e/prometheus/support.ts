/**
 * Hosts with every built-in plugin and a few fixture processes (one crash-looping), scrape
 * tokens, and promtool: what the exposition and fleet tests share.
 */
import { spawn } from 'node:child_process';
import { program } from '../../plugins/supervisor/support/processes.js';
import { request } from '../../helpers/http.js';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';

/** A process block running a fixture program with the host's node. */
function block(name: string, path: string, args: readonly string[], extra = {}) {
  return { enabled: true, process_name: name, command: ['node', path, ...args], ...extra };
}

/** Service blocks: `count` long-running processes and one that crashes every ~0.3 s. */
export function fleetServices(prefix: string, count = 2): Record<string, unknown> {
  const services: Record<string, unknown> = {};
  for (let index = 1; index <= count; index += 1)
    services[`${prefix}_steady_${index}`] = block(
      `${prefix}-steady-${index}`,
      program('long-running'),
      [],
    );
  services[`${prefix}_looper`] = block(`${prefix}-looper`, program('crashes'), ['--after', '300'], {
    restart_policy: { base_sec: 0.2, factor: 1, max_restarts: 10_000, window_seconds: 60 },
  });
  return services;
}

/** A host with every built-in plugin (no `--plugins`) and `services`. */
export function startFleetHost(services: Record<string, unknown>): Promise<RunningHostProcess> {
  return startHost({
    config: {
      stackd: {
        api_service: { enabled: true, process_name: 'stackd API', log_level: 'INFO' },
        supervisor: { start_check_ms: 100 },
      },
      ...services,
    },
  });
}

/** Turn authentication on (first user) and create a scrape token; returns both tokens. */
export async function enableAuthWithScrapeToken(
  host: RunningHostProcess,
): Promise<{ admin: string; scrape: string; id: string }> {
  const setup = await request(host.url, '/api/auth/setup', {
    body: { username: 'admin', password: 'admin-password' },
  });
  if (setup.status !== 200) throw new Error(`setup: ${setup.status} ${setup.text}`);
  const admin = setup.body.access_token as string;
  const created = await request(host.url, '/api/auth/scrape-tokens', {
    body: { name: 'prometheus' },
    token: admin,
  });
  if (created.status !== 201) throw new Error(`scrape token: ${created.status} ${created.text}`);
  return { admin, scrape: created.body.token as string, id: created.body.id as string };
}

/** The text exposition of a host. */
export async function scrape(
  host: RunningHostProcess,
  options: { token?: string; accept?: string; path?: string } = {},
): Promise<{ status: number; contentType: string; text: string }> {
  const response = await request(host.url, options.path ?? '/metrics/prometheus', {
    ...(options.token === undefined ? {} : { token: options.token }),
    headers: options.accept === undefined ? {} : { accept: options.accept },
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: response.text,
  };
}

/** Run a command with `input` on stdin; resolves with its exit code and output. */
export function run(
  command: string,
  args: readonly string[],
  input?: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(input ?? '');
  });
}

/** The value of the first sample of `series` whose labels include `labels` (text format). */
export function sampleValue(text: string, series: string, labels: string): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${series}{`) && !line.startsWith(`${series} `)) continue;
    if (!line.includes(labels)) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
