/**
 * The `supervisor.processes` service other plugins use: the supervisor's queries and controls,
 * plus the bounded launch of the control routes and the before-start extension point.
 */
import type { ProcessSupervisor } from '../../../sdk/index.js';
import type { ProcessControl } from './process-control.js';
import type { StartPreparers } from './start-preparers.js';
import type { Supervisor } from './supervisor.js';

/** Compose the contract from the supervisor, its route control and its preparers. */
export function supervisorService(
  supervisor: Supervisor,
  control: ProcessControl,
  preparers: StartPreparers,
): ProcessSupervisor {
  return {
    list: () => supervisor.list(),
    find: (name) => supervisor.find(name),
    states: () => supervisor.states(),
    state: (name) => supervisor.state(name),
    pidTree: (name) => supervisor.pidTree(name),
    logFile: (name) => supervisor.logFile(name),
    start: (name) => supervisor.start(name),
    stop: (name) => supervisor.stop(name),
    restart: (name) => supervisor.restart(name),
    launch: (name, options) => control.launch(name, options),
    addStartPreparer: (preparer) => preparers.add(preparer),
  };
}
