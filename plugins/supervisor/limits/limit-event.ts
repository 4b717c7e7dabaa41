/** A hit limit as a notable event (`service.limit.reached`, one condition per limit). */
import type { NotableEvent } from '../../../sdk/index.js';
import type { LimitBreach } from './limit-watch.js';

/** The notable event of `breach` for process `processName`. */
export function limitEvent(processName: string, breach: LimitBreach): NotableEvent {
  return {
    event_type: 'service.limit.reached',
    severity: breach.limit === 'memory_high' ? 'warning' : 'critical',
    title: `${processName} reached its ${breach.limit}`,
    body: `${processName}: ${breach.reason}.`,
    service_name: processName,
    condition_key: breach.limit,
    source: 'supervisor',
    details: { limit: breach.limit, action: breach.action },
  };
}
