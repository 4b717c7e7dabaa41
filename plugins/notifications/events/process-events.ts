/**
 * The supervisor's process state changes as notable events: an unexpected stop, a restart
 * attempt, a restart that worked, and giving up. Destination cooldowns keep a flapping process
 * to one notification per cooldown.
 */
import type { NotableEvent, ProcessState } from '../../../sdk/index.js';

/** Turns state changes into events (it remembers each process's previous status). */
export class ProcessEventTranslator {
  private readonly previous = new Map<string, string>();

  translate(state: ProcessState): NotableEvent | null {
    const before = this.previous.get(state.process_name);
    this.previous.set(state.process_name, state.status);
    if (before === state.status) return null;
    const name = state.process_name;
    const reason = state.reason ?? '';
    const base = { service_name: name, source: 'notifications', condition_key: name };
    if (state.status === 'crashed' && /gave up/.test(reason))
      return {
        ...base,
        event_type: 'service.auto_restart.failed',
        severity: 'critical',
        title: `${name} keeps crashing: auto-restart gave up`,
        body: reason,
      };
    if (state.status === 'crashed')
      return {
        ...base,
        event_type: 'service.stopped.unexpectedly',
        severity: 'critical',
        title: `${name} stopped unexpectedly`,
        body: reason || 'The process exited.',
      };
    if (state.status === 'backoff')
      return {
        ...base,
        event_type: 'service.auto_restart.attempt',
        severity: 'warning',
        title: `${name} is being restarted`,
        body: reason,
      };
    if (
      state.status === 'running' &&
      (before === 'backoff' || before === 'starting') &&
      state.restarts > 0
    )
      return {
        ...base,
        event_type: 'service.auto_restart.succeeded',
        severity: 'success',
        title: `${name} is running again`,
        body: `Restarted ${state.restarts} time(s).`,
      };
    return null;
  }
}
