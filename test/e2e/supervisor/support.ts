/** Start the real host with the supervisor plugin (by path) and a config of fixture programs. */
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { request } from '../../helpers/http.js';
import {
  startHost,
  type RunningHostProcess,
  type StartHostOptions,
} from '../../helpers/start-host.js';

/** The compiled supervisor plugin next to these compiled tests. */
export const SUPERVISOR_PLUGIN = builtinPlugin('supervisor');

export { isAlive, program, readPid } from '../../plugins/supervisor/support/processes.js';

/** A process block running a fixture program with the host's node. */
export function fixtureBlock(
  processName: string,
  programPath: string,
  args: readonly string[] = [],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    enabled: true,
    process_name: processName,
    command: ['node', programPath, ...args],
    ...extra,
  };
}

/** Start a host with `services` as the config's service blocks; quick start checks by default. */
export function startSupervisor(
  services: Record<string, unknown>,
  options: {
    supervisor?: Record<string, unknown>;
    /** Other sections of `stackd` (other plugins' slices). */
    sections?: Record<string, unknown>;
    /** More plugins (paths) to load besides the supervisor. */
    plugins?: readonly string[];
    host?: Partial<StartHostOptions>;
  } = {},
): Promise<RunningHostProcess> {
  return startHost({
    config: {
      stackd: {
        api_service: { enabled: true, process_name: 'stackd API', log_level: 'INFO' },
        supervisor: { start_check_ms: 300, ...options.supervisor },
        ...options.sections,
      },
      ...services,
    },
    plugins: [SUPERVISOR_PLUGIN, ...(options.plugins ?? [])],
    ...options.host,
  });
}

/** The body of GET /process/service-status. */
export interface StatusBody {
  readonly process_name: string;
  readonly status: string;
  readonly pid?: number;
  readonly exit_code?: number;
  readonly restarts: number;
  readonly uptime_s?: number;
  readonly reason?: string;
}

/** GET /process/service-status of one process. */
export async function serviceStatus(
  host: RunningHostProcess,
  processName: string,
): Promise<StatusBody> {
  const response = await request<StatusBody>(
    host.url,
    `/process/service-status?process_name=${encodeURIComponent(processName)}`,
  );
  return response.body;
}
