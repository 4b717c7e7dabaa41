/** GET /process/startup-status: the boot lifecycle of the stack (see StartupTracker). */
import { Nullable, StringEnum, Type, defineRoute } from '../../../sdk/index.js';
import type { StartupTracker } from '../startup-tracker.js';
import type { Supervisor } from '../supervisor.js';

const Readiness = Type.Object({
  state: StringEnum(['pending', 'starting', 'ready', 'failed'] as const),
  reason: Type.String(),
  health_status: Nullable(Type.String()),
});

const StartupStatusBody = Type.Object({
  phase: StringEnum(
    ['initializing', 'starting_services', 'ready', 'degraded', 'shutting_down'] as const,
    {
      description:
        'initializing → starting_services → ready | degraded (some enabled process failed to ' +
        'start); shutting_down once the host stops. ready, degraded and shutting_down are terminal.',
    },
  ),
  terminal: Type.Boolean(),
  started_at: Nullable(Type.String({ format: 'date-time' })),
  completed_at: Nullable(Type.String({ format: 'date-time' })),
  expected_services: Type.Array(Type.String(), {
    description: 'The processes enabled at boot, sorted',
  }),
  services: Type.Record(Type.String(), Readiness, {
    description: 'Each expected process: pending, starting, ready (running) or failed, with why',
  }),
  failures: Type.Record(Type.String(), Type.String(), {
    description:
      'Processes that failed to start at boot or crashed since and were left crashed, with the reason',
  }),
});

export function startupStatusRoute(tracker: StartupTracker, supervisor: Supervisor) {
  return defineRoute({
    method: 'GET',
    path: '/process/startup-status',
    summary: 'How the boot of the stack went',
    description:
      'The DUMB dashboard polls this while `startup_lifecycle` is true, until `terminal`. ' +
      'Kept in memory: a restart of stackd is a new boot.',
    tags: ['process'],
    schema: { response: StartupStatusBody },
    handler: () => tracker.status((name) => supervisor.state(name)),
  });
}
