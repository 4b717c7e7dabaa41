/** `stackd status [NAME…] [--json] [--watch]`: one table of the processes and their state. */
import type { ServiceStatusBody } from '../../plugins/supervisor/schemas.js';
import type { ApiClient } from '../api.cjs';
import type { ClientContext } from '../context.cjs';
import { bytes, duration, table, type Paint } from '../output.cjs';
import {
  isSelf,
  listProcesses,
  pickProcesses,
  portOf,
  type ProcessListEntry,
} from '../processes.cjs';

export interface StatusOptions {
  readonly json: boolean;
  readonly watch: boolean;
  readonly interval: string;
}

interface Usage {
  readonly cpu_percent: number;
  readonly rss_bytes: number;
  readonly uptime_sec: number | null;
}

interface Row {
  readonly entry: ProcessListEntry;
  readonly usage: Usage | undefined;
  readonly reason: string | undefined;
}

/** GET /metrics's processes, or an empty map when the metrics plugin is not loaded. */
async function usageByName(api: ApiClient): Promise<Map<string, Usage>> {
  const response = await api.request('GET', '/metrics');
  const usage = new Map<string, Usage>();
  if (response.status !== 200) return usage;
  const processes = (response.body as { processes?: Record<string, Usage> }).processes ?? {};
  for (const [name, value] of Object.entries(processes)) usage.set(name, value);
  return usage;
}

/** Why a process is in its state (a wait, a failure), for those not simply running or stopped. */
async function reasonOf(api: ApiClient, entry: ProcessListEntry): Promise<string | undefined> {
  if (entry.status === 'running' || entry.status === 'stopped') return undefined;
  const response = await api.request('GET', '/process/service-status', {
    query: { process_name: entry.process_name },
  });
  return response.status === 200 ? (response.body as ServiceStatusBody).reason : undefined;
}

async function collect(api: ApiClient, names: readonly string[]): Promise<Row[]> {
  const [entries, usage] = await Promise.all([listProcesses(api), usageByName(api)]);
  const picked = pickProcesses(entries, names);
  const reasons = await Promise.all(picked.map((entry) => reasonOf(api, entry)));
  return picked.map((entry, index) => ({
    entry,
    usage: usage.get(entry.process_name),
    reason: reasons[index],
  }));
}

const STATE_COLOURS: Record<string, Parameters<Paint>[0]> = {
  running: 'green',
  stopped: 'grey',
  starting: 'yellow',
  stopping: 'yellow',
  backoff: 'red',
  crashed: 'red',
};

/** The table's lines (header first). */
export function statusLines(rows: readonly Row[], paint: Paint, selfPort?: string): string[] {
  const header = ['NAME', 'STATE', 'PID', 'UPTIME', 'RESTARTS', 'CPU', 'MEMORY', 'PORT'];
  const body = rows.map(({ entry, usage, reason }) => {
    const state = paint(STATE_COLOURS[entry.status] ?? 'bold', entry.status);
    // The API listens where the client reached it (--port may override the file).
    const port = isSelf(entry) && selfPort !== undefined ? selfPort : portOf(entry);
    return [
      paint('bold', entry.process_name),
      reason === undefined ? state : `${state} ${paint('grey', `(${reason})`)}`,
      entry.pid === null ? '-' : String(entry.pid),
      entry.status === 'running' ? duration(usage?.uptime_sec) : '-',
      String(entry.restarts),
      usage === undefined || entry.pid === null ? '-' : `${usage.cpu_percent.toFixed(1)}%`,
      usage === undefined || entry.pid === null ? '-' : bytes(usage.rss_bytes),
      port === undefined ? '-' : String(port),
    ];
  });
  return table([header.map((cell) => paint('bold', cell)), ...body]);
}

/** Run `status`. */
export async function status(
  context: ClientContext,
  names: readonly string[],
  options: StatusOptions,
): Promise<void> {
  if (options.json) {
    const picked = pickProcesses(await listProcesses(context.api), names);
    context.out(`${JSON.stringify({ processes: picked }, null, 2)}\n`);
    return;
  }
  if (!options.watch) {
    context.out(
      `${statusLines(await collect(context.api, names), context.paint, selfPort(context)).join('\n')}\n`,
    );
    return;
  }
  await watch(context, names, Math.max(0.5, Number(options.interval) || 2));
}

/** Redraw the table in place every `seconds` until interrupted. */
async function watch(context: ClientContext, names: readonly string[], seconds: number) {
  let previousLines = 0;
  for (;;) {
    const lines = statusLines(await collect(context.api, names), context.paint, selfPort(context));
    const stamp = context.paint('grey', `every ${seconds}s — ${new Date().toLocaleTimeString()}`);
    const frame = [stamp, ...lines];
    // Back to the first line of the previous frame, then overwrite each line and clear the rest.
    const up = previousLines > 0 ? `\x1b[${previousLines}F` : '';
    context.out(`${up}${frame.map((line) => `${line}\x1b[K`).join('\n')}\n\x1b[J`);
    previousLines = frame.length;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

function selfPort(context: ClientContext): string | undefined {
  const url = new URL(context.api.baseUrl);
  return url.port === '' ? undefined : url.port;
}
