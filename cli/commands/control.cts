/** `stackd start|stop|restart NAME…|--all`: ask the host and print each outcome. */
import type { ControlBody, ServiceStatusBody } from '../../plugins/supervisor/schemas.js';
import { detailOf, type ApiResponse } from '../api.cjs';
import type { ClientContext } from '../context.cjs';
import { CliError, EXIT } from '../errors.cjs';
import { isSelf, listProcesses, pickProcesses, type ProcessListEntry } from '../processes.cjs';

export type Action = 'start' | 'stop' | 'restart';

export interface ControlOptions {
  readonly all: boolean;
  readonly wait: boolean;
}

const ROUTES: Record<Action, string> = {
  start: '/process/start-service',
  stop: '/process/stop-service',
  restart: '/process/restart-service',
};

/** How long --no-wait waits for the host to take the request before leaving it to finish. */
const NO_WAIT_MS = 300;
/** Final states of a start the host answered 202 (still starting) for. */
const SETTLED = new Set(['running', 'stopped', 'crashed', 'backoff']);

interface Outcome {
  readonly ok: boolean;
  readonly line: string;
}

/** Run one action on each named process (or all), print each outcome; exit 1 if any failed. */
export async function control(
  context: ClientContext,
  action: Action,
  names: readonly string[],
  options: ControlOptions,
): Promise<void> {
  if (names.length === 0 && !options.all)
    throw new CliError(
      `name the processes to ${action} or pass --all (see stackd ${action} --help)`,
      EXIT.usage,
    );
  if (names.length > 0 && options.all)
    throw new CliError(`give names to ${action} or --all, not both`, EXIT.usage);
  const entries = await listProcesses(context.api);
  const targets = options.all
    ? entries.filter((entry) => entry.enabled && !isSelf(entry))
    : pickProcesses(entries, names);
  const outcomes = await Promise.all(
    targets.map(async (entry) => {
      const outcome = await controlOne(context, action, entry, options.wait);
      context.out(`${outcome.line}\n`);
      return outcome;
    }),
  );
  if (outcomes.some((outcome) => !outcome.ok)) process.exitCode = EXIT.failed;
}

async function controlOne(
  context: ClientContext,
  action: Action,
  entry: ProcessListEntry,
  wait: boolean,
): Promise<Outcome> {
  const { api, paint } = context;
  const name = paint('bold', entry.process_name);
  const request = api.request('POST', ROUTES[action], {
    body: { process_name: entry.process_name },
    timeoutMs: null,
  });
  if (!wait) {
    const early = await Promise.race([
      request,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), NO_WAIT_MS)),
    ]);
    if (early === undefined) {
      // Keep the request alive in the background would hold the process open: the host goes
      // on with the action on its own once it has the request.
      return { ok: true, line: `${name}: ${action} requested` };
    }
    return describe(context, action, entry, early);
  }
  let response = await request;
  if (response.status === 202) response = await settle(context, entry);
  return describe(context, action, entry, response);
}

/** Poll service-status until a start the host answered 202 for has settled. */
async function settle(context: ClientContext, entry: ProcessListEntry): Promise<ApiResponse> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const response = await context.api.request('GET', '/process/service-status', {
      query: { process_name: entry.process_name },
    });
    const body = response.body as ServiceStatusBody;
    if (response.status !== 200 || SETTLED.has(body.status)) return response;
  }
}

function describe(
  context: ClientContext,
  action: Action,
  entry: ProcessListEntry,
  response: ApiResponse,
): Outcome {
  const { paint } = context;
  const name = paint('bold', entry.process_name);
  if (response.status !== 200)
    return { ok: false, line: `${name}: ${paint('red', 'failed')} — ${detailOf(response)}` };
  const body = response.body as ControlBody & Partial<ServiceStatusBody>;
  if (action === 'stop') {
    const exit = body.exit_code === undefined ? '' : ` (exit code ${body.exit_code})`;
    return { ok: true, line: `${name}: ${paint('grey', body.status)}${exit} — ${body.message}` };
  }
  if (body.status === 'running') {
    const pid = body.pid === undefined ? '' : ` (pid ${body.pid})`;
    return { ok: true, line: `${name}: ${paint('green', 'running')}${pid}` };
  }
  const why = body.reason ?? body.message ?? body.status;
  return { ok: false, line: `${name}: ${paint('red', 'failed')} — ${body.status}: ${why}` };
}
