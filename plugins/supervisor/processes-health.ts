/** The supervisor's part of GET /health: unhealthy while an enabled process is crashed or backing off. */
import type { HealthResult, ProcessEntry } from '../../sdk/index.js';
import type { Supervisor } from './supervisor.js';

// /health may be polled thousands of times a second: the answer is kept until a state or the
// configuration changes (copying 50 states per request was a seventh of /health's main thread).
const answers = new WeakMap<
  Supervisor,
  { entries: ProcessEntry[]; changes: number; answer: HealthResult }
>();

/** Healthy, or the enabled processes that are down unexpectedly. */
export function processesHealth(supervisor: Supervisor): HealthResult {
  const entries = supervisor.entries();
  const changes = supervisor.stateChanges;
  const known = answers.get(supervisor);
  if (known?.entries === entries && known.changes === changes) return known.answer;
  const answer = judge(supervisor, entries);
  answers.set(supervisor, { entries, changes, answer });
  return answer;
}

function judge(supervisor: Supervisor, entries: readonly ProcessEntry[]): HealthResult {
  const down: string[] = [];
  for (const entry of entries) {
    if (entry.self || entry.block.enabled !== true) continue;
    const { status } = supervisor.stateOf(entry);
    if (status === 'crashed' || status === 'backoff') down.push(`${entry.process_name} ${status}`);
  }
  return down.length === 0 ? { healthy: true } : { healthy: false, details: down.join(', ') };
}
