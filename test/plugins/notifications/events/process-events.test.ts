/** The supervisor's state changes as notable events. */
import test from 'ava';
import { ProcessEventTranslator } from '../../../../plugins/notifications/events/process-events.js';

test('process state changes become service events', (t) => {
  const translator = new ProcessEventTranslator();
  const state = (status: string, reason: string | null = null, restarts = 0) => ({
    process_name: 'Web',
    status: status as never,
    pid: null,
    exit_code: 1,
    restarts,
    started_at: null,
    reason,
  });
  t.is(translator.translate(state('running')), null);
  t.is(
    translator.translate(state('crashed', 'Web exited unexpectedly (exit code 1)'))?.event_type,
    'service.stopped.unexpectedly',
  );
  t.is(
    translator.translate(state('backoff', 'restart 1 in 1 s'))?.event_type,
    'service.auto_restart.attempt',
  );
  t.is(translator.translate(state('starting'))?.event_type, undefined);
  t.is(
    translator.translate(state('running', null, 1))?.event_type,
    'service.auto_restart.succeeded',
  );
  t.is(
    translator.translate(state('crashed', 'x; gave up after 5 restarts'))?.event_type,
    'service.auto_restart.failed',
  );
});
