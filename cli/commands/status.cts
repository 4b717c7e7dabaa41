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

interface Row {
  readonly entry: ProcessListEntry;
  readonly reason: string | undefined;
}

/** Why a process is in its state (a wait, a failure), for those not simply running or stopped. */
async function reasonOf(api: ApiClient, entry: ProcessListEntry): Promise<string | undefined> {
  if (entry.status === 'running' || entry.status === 'stopped') return undefined;
  const response = await api.request('GET', '/process/service-status', {
    query: { process_name: entry.process_name },
  });
  return response.status === 200 ? (response.body as ServiceStatusBody).reason : undefined;
}

/**
 * The list carries the figures (uptime, tree CPU and memory of the latest sample): one request,
 * plus one per process that waits or failed, for its reason.
 */
async function collect(api: ApiClient, names: readonly string[]): Promise<Row[]> {
  const picked = pickProcesses(await listProcesses(api), names);
  const reasons = await Promise.all(picked.map((entry) => reasonOf(api, entry)));
  return picked.map((entry, index) => ({ entry, reason: reasons[index] }));
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
  const body = rows.map(({ entry, reason }) => {
    const state = paint(STATE_COLOURS[entry.status] ?? 'bold', entry.status);
    // The API listens where the client reached it (--port may override the file).
    const port = isSelf(entry) && selfPort !== undefined ? selfPort : portOf(entry);
    return [
      paint('bold', entry.process_name),
      reason === undefined ? state : `${state} ${paint('grey', `(${reason})`)}`,
      entry.pid === null ? '-' : String(entry.pid),
      entry.status === 'running' ? duration(entry.uptime_s) : '-',
      String(entry.restarts),
      entry.cpu_percent === null || entry.pid === null ? '-' : `${entry.cpu_percent.toFixed(1)}%`,
      entry.rss_bytes === null || entry.pid === null ? '-' : bytes(entry.rss_bytes),
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
