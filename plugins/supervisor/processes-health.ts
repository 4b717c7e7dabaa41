/** The supervisor's part of GET /health: unhealthy while an enabled process is crashed or backing off. */
import type { HealthResult } from '../../sdk/index.js';
import type { Supervisor } from './supervisor.js';

/** Healthy, or the enabled processes that are down unexpectedly. */
export function processesHealth(supervisor: Supervisor): HealthResult {
  const down: string[] = [];
  for (const entry of supervisor.entries()) {
    if (entry.self || entry.block.enabled !== true) continue;
    const { status } = supervisor.stateOf(entry);
    if (status === 'crashed' || status === 'backoff') down.push(`${entry.process_name} ${status}`);
  }
  return down.length === 0 ? { healthy: true } : { healthy: false, details: down.join(', ') };
}
