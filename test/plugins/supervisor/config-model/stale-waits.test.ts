/** Warnings for waits left on a port that a change moves a process off. */
import test from 'ava';
import { staleWaits } from '../../../../plugins/supervisor/config-model/stale-waits.js';

function stack(webPort: number, sonarrWait: unknown, extra: Record<string, unknown> = {}) {
  return {
    web: { process_name: 'Web', enabled: true, command: ['web'], port: webPort },
    sonarr: { process_name: 'Sonarr', enabled: true, command: ['s'], wait_for_url: sonarrWait },
    ...extra,
  };
}

test('a dependent still waiting on the old port is named, with the field and both ports', (t) => {
  const warnings = staleWaits(
    stack(8080, ['http://127.0.0.1:8080/health']),
    stack(8081, ['http://127.0.0.1:8080/health']),
  );
  t.is(warnings.length, 1);
  t.is(warnings[0]?.process_name, 'Sonarr');
  t.is(warnings[0]?.field, 'sonarr.wait_for_url');
  t.regex(warnings[0]?.detail ?? '', /127\.0\.0\.1:8080\/health, the old port of Web \(now 8081\)/);
});

test('no warning when the dependent moves with it, or the wait is on another host', (t) => {
  t.deepEqual(
    staleWaits(stack(8080, ['http://127.0.0.1:8080/']), stack(8081, ['http://127.0.0.1:8081/'])),
    [],
  );
  t.deepEqual(
    staleWaits(stack(8080, ['http://nas.lan:8080/']), stack(8081, ['http://nas.lan:8080/'])),
    [],
  );
});

test('no warning when another process takes the old port over', (t) => {
  const taker = { other: { process_name: 'Other', enabled: true, command: ['o'], port: 8080 } };
  t.deepEqual(
    staleWaits(
      stack(8080, ['http://localhost:8080/']),
      stack(8081, ['http://localhost:8080/'], taker),
    ),
    [],
  );
});

test('tcp waits, wildcard hosts, instance paths and disabled waiters', (t) => {
  const previous = {
    web: { process_name: 'Web', enabled: true, command: ['web'], port: 9000 },
    arr: {
      instances: {
        One: {
          process_name: 'Arr One',
          enabled: true,
          command: ['a'],
          wait_for_tcp: ['0.0.0.0:9000'],
        },
        Two: {
          process_name: 'Arr Two',
          enabled: false,
          command: ['a'],
          wait_for_url: 'http://127.0.0.1:9000',
        },
      },
    },
  };
  const next = structuredClone(previous);
  next.web.port = 9001;
  const warnings = staleWaits(previous, next);
  t.deepEqual(
    warnings.map((warning) => [warning.process_name, warning.field]),
    [['Arr One', 'arr.instances.One.wait_for_tcp']],
  );
});

test('an unparsable wait is left to validation, not warned about', (t) => {
  t.deepEqual(staleWaits(stack(8080, ['not a url']), stack(8081, ['not a url'])), []);
});
