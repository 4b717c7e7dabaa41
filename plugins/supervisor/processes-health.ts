/** The supervisor's part of GET /health: unhealthy while an enabled process is crashed or backing off. */
import type { HealthResult } from '../../sdk/index.js';
import type { Supervisor } from './supervisor.js';

/**
 * The check: healthy, or the enabled processes that are down unexpectedly. /health may be polled
 * thousands of times a second, so the answer is a state view, kept until a state or the
 * configuration changes (copying 50 states per request was a seventh of its main thread).
 */
export function processesHealthCheck(supervisor: Supervisor): () => HealthResult {
  return supervisor.stateView((entries): HealthResult => {
    const down: string[] = [];
    for (const entry of entries) {
      if (entry.self || entry.block.enabled !== true) continue;
      const { status } = supervisor.stateOf(entry);
      if (status === 'crashed' || status === 'backoff')
        down.push(`${entry.process_name} ${status}`);
    }
    return down.length === 0 ? { healthy: true } : { healthy: false, details: down.join(', ') };
  });
}
