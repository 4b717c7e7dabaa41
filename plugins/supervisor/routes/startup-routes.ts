/** GET /process/startup-status: the boot lifecycle of the stack (see StartupTracker). */
import { defineRoute } from '../../../sdk/index.js';
import { StartupStatusBody } from '../schemas.js';
import type { StartupTracker } from '../startup/startup-tracker.js';
import type { Supervisor } from '../supervision/supervisor.js';

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
