/** The DUMB line format of /ws/logs: the level a process line announces, else INFO. */
import test from 'ava';
import { dumbLogLine, levelOf } from '../../../../plugins/supervisor/streams/dumb-log-line.js';

test('a line that starts with a level keeps it; anything else is INFO', (t) => {
  t.is(levelOf('WARNING processed job 50 in 46 ms'), 'WARNING');
  t.is(levelOf('[ERROR] cannot bind'), 'ERROR');
  t.is(levelOf('warn: disk almost full'), 'WARNING');
  t.is(levelOf('fatal - out of memory'), 'CRITICAL');
  t.is(levelOf('DEBUG'), 'DEBUG');
  t.is(levelOf('information about errors'), 'INFO', 'a word that only begins with a level');
  t.is(levelOf('processed job 1 with error'), 'INFO', 'a level later in the line');
  t.is(
    dumbLogLine('2026-11-24T00:00:00.000Z', 'Demo Worker', 'ERROR boom'),
    '2026-11-24T00:00:00.000Z - ERROR - Demo Worker subprocess: ERROR boom',
  );
});
