/** The supervisor's part of GET /health: unhealthy while an enabled process is crashed or backing off. */
import type { HealthResult } from '../../../sdk/index.js';
import type { Supervisor } from './supervisor.js';

/**
 * The check: healthy, or the enabled processes that are down unexpectedly. /health may be polled
 * thousands of times a second, so the answer is a state view, kept until a state or the
 * configuration changes (copying 50 states per request was a seventh of its main thread).
 */
export function processesHealthCheck(supervisor: Supervisor): () => HealthResult {
  return supervisor.stateView((entries): HealthResult => {
    const down: string[] = [];
    const adopted: string[] = [];
    let byHostStart: number | undefined;
    for (const entry of entries) {
      if (entry.self || entry.block.enabled !== true) continue;
      const { status } = supervisor.stateOf(entry);
      if (status === 'crashed' || status === 'backoff')
        down.push(`${entry.process_name} ${status}`);
      const stamp = supervisor.adoptedBy(entry.process_name);
      if (stamp !== undefined) {
        adopted.push(entry.process_name);
        byHostStart = stamp.adopted_by_host_start;
      }
    }
    // Said healthy or not: which processes a previous host started matters after an upgrade.
    const note =
      byHostStart === undefined
        ? {}
        : {
            note: `adopted ${adopted.length} process(es) by the host start of ${new Date(byHostStart).toISOString()}: ${adopted.join(', ')}`,
          };
    return down.length > 0
      ? { healthy: false, details: down.join(', '), ...note }
      : { healthy: true, ...note };
  });
}
