/** The end of the boot start as a notable event: the whole stack is up, or some of it is not. */
import type { NotableEvent } from '../../../sdk/index.js';

/** `stackd.startup.ready` when nothing failed, else `stackd.startup.degraded` naming the failed. */
export function startupEvent(
  started: readonly string[],
  failed: ReadonlyMap<string, string>,
): NotableEvent {
  if (failed.size === 0)
    return {
      event_type: 'stackd.startup.ready',
      severity: 'success',
      title: 'stackd started every enabled process',
      body: `${started.length} process(es) running.`,
      source: 'supervisor',
    };
  const names = [...failed.keys()].join(', ');
  return {
    event_type: 'stackd.startup.degraded',
    severity: 'critical',
    title: 'stackd started with failed processes',
    body: `Failed to start: ${names}.`,
    source: 'supervisor',
    details: { failed: names },
  };
}
