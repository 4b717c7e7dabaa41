/** POST /process/start-service|stop-service|restart-service and the earlier /process/start|stop|restart. */
import { ErrorBody, defineRoute, isHttpError, reply } from '../../../sdk/index.js';
import { ControlBody, LegacyControlBody, ProcessNameBody } from '../schemas.js';
import type { Supervisor } from '../supervision/supervisor.js';
import type { ProcessControl } from '../supervision/process-control.js';

const START_DESCRIPTION = [
  'Answers once the process is running (200), or when the start failed: 400',
  'PROCESS_CONFIG_INVALID (the block cannot be run: a placeholder naming a non-scalar field, bad command),',
  '409 PROCESS_START_FAILED naming the reason (it exited at once, a wait timed out, the program is missing), 409',
  'PROCESS_START_CANCELLED (stopped meanwhile). A start still waiting for its dependencies',
  'when the response timeout passes answers 202 with status starting; it goes on in the',
  'background. Starting a running process is a 200 no-op. Unknown process → 404.',
].join('\n');

/** Start or restart through the control, 202 while still starting. */
function startedBy(supervisor: Supervisor, control: ProcessControl) {
  return async (name: string, restart: boolean) => {
    const entry = supervisor.requireEntry(name);
    const result = await control.start(entry, restart);
    const { state } = result;
    const body = {
      status: state.status,
      process_name: entry.process_name,
      message: result.done
        ? `Service ${restart ? 'restarted' : 'started'} successfully`
        : `Still starting${state.reason === null ? '' : `: ${state.reason}`}`,
      ...(state.pid === null ? {} : { pid: state.pid }),
    };
    return result.done ? body : reply(202, body);
  };
}

/** The earlier generation's start: a failed start is 200 with success false. */
function legacyStartedBy(supervisor: Supervisor, control: ProcessControl) {
  return async (name: string, restart: boolean) => {
    const entry = supervisor.requireEntry(name);
    try {
      const result = await control.start(entry, restart);
      return {
        success: result.done,
        message: result.done
          ? `${entry.process_name} ${restart ? 'restarted' : 'started'}`
          : `${entry.process_name} is still starting`,
        pid: result.state.pid,
      };
    } catch (error) {
      if (isHttpError(error) && error.status !== 404)
        return { success: false, message: error.message, pid: null };
      throw error;
    }
  };
}

export function startServiceRoute(supervisor: Supervisor, control: ProcessControl) {
  const started = startedBy(supervisor, control);
  return defineRoute({
    method: 'POST',
    path: '/process/start-service',
    summary: 'Start a process (and re-enable its auto-restart)',
    description: START_DESCRIPTION,
    tags: ['process'],
    schema: {
      body: ProcessNameBody,
      response: { 200: ControlBody, 202: ControlBody, 404: ErrorBody, 409: ErrorBody },
    },
    handler: ({ body }) => started(body.process_name, false),
  });
}

export function restartServiceRoute(supervisor: Supervisor, control: ProcessControl) {
  const started = startedBy(supervisor, control);
  return defineRoute({
    method: 'POST',
    path: '/process/restart-service',
    summary: 'Stop a process (when running), then start it',
    description: START_DESCRIPTION,
    tags: ['process'],
    schema: {
      body: ProcessNameBody,
      response: { 200: ControlBody, 202: ControlBody, 404: ErrorBody, 409: ErrorBody },
    },
    handler: ({ body }) => started(body.process_name, true),
  });
}

export function stopServiceRoute(supervisor: Supervisor, control: ProcessControl) {
  return defineRoute({
    method: 'POST',
    path: '/process/stop-service',
    summary: 'Stop a process: its stop signal to the group, SIGKILL after the stop timeout',
    description:
      'Answers once the whole process group is gone. Disables auto-restart until the next ' +
      'start. Stopping a stopped process is a 200 no-op ("Service was not running"). The API ' +
      'itself cannot be stopped: 400 PROCESS_SELF_STOP. Unknown process → 404.',
    tags: ['process'],
    schema: { body: ProcessNameBody, response: { 200: ControlBody, 404: ErrorBody } },
    handler: async ({ body }) => {
      const entry = supervisor.requireEntry(body.process_name);
      const { state, wasRunning } = await control.stop(entry);
      return {
        status: state.status,
        process_name: entry.process_name,
        message: wasRunning ? 'Service stopped successfully' : 'Service was not running',
        ...(state.exit_code === null ? {} : { exit_code: state.exit_code }),
      };
    },
  });
}

/** POST /process/start or /process/restart (deprecated aliases). */
export function legacyStartRoute(
  supervisor: Supervisor,
  control: ProcessControl,
  restart: boolean,
) {
  const legacyStart = legacyStartedBy(supervisor, control);
  return defineRoute({
    method: 'POST',
    path: restart ? '/process/restart' : '/process/start',
    summary: `Earlier generation of ${restart ? 'restart' : 'start'}-service`,
    description:
      'Deprecated alias. A start that fails (the process exits, a wait times out, the block ' +
      'cannot be run) answers 200 with success false and the reason in message; an unknown ' +
      'process_name answers 404 PROCESS_NOT_FOUND.',
    tags: ['process'],
    deprecated: true,
    schema: { body: ProcessNameBody, response: { 200: LegacyControlBody, 404: ErrorBody } },
    handler: ({ body }) => legacyStart(body.process_name, restart),
  });
}

export function legacyStopRoute(supervisor: Supervisor, control: ProcessControl) {
  return defineRoute({
    method: 'POST',
    path: '/process/stop',
    summary: 'Earlier generation of stop-service',
    description: 'Deprecated alias.',
    tags: ['process'],
    deprecated: true,
    schema: { body: ProcessNameBody, response: { 200: LegacyControlBody, 404: ErrorBody } },
    handler: async ({ body }) => {
      const entry = supervisor.requireEntry(body.process_name);
      const { wasRunning } = await control.stop(entry);
      return {
        success: true,
        message: wasRunning
          ? `${entry.process_name} stopped`
          : `${entry.process_name} was not running`,
        pid: null,
      };
    },
  });
}
