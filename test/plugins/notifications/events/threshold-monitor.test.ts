import test from 'ava';
import { ThresholdMonitor } from '../../../../plugins/notifications/events/threshold-monitor.js';
import { ProcessEventTranslator } from '../../../../plugins/notifications/events/process-events.js';
import { PAYLOADS } from '../../../../plugins/notifications/delivery/payloads/index.js';
import { safeError } from '../../../../plugins/notifications/delivery/sender.js';
import type { MetricsSnapshot } from '../../../../sdk/index.js';

const thresholds = {
  cpu_percent: 80,
  memory_percent: 80,
  disk_percent: 90,
  inode_percent: 90,
  database_pressure: 'high' as const,
  duration_sec: 10,
};

function snapshot(cpu: number, disk: number): MetricsSnapshot {
  return {
    timestamp: new Date().toISOString(),
    collectors: {
      system: {
        cpu_percent: cpu,
        memory: { percent: 10 },
        filesystems: [{ path: '/data', percent: disk, inode_percent: 5 }],
      },
    },
  };
}

test('a condition is sent once after its duration, then once on recovery; the baseline sends nothing', (t) => {
  const monitor = new ThresholdMonitor();
  t.deepEqual(
    monitor.check(snapshot(95, 10), thresholds, 0),
    [],
    'baseline: already active, never sent',
  );
  t.deepEqual(monitor.check(snapshot(10, 10), thresholds, 1_000), [], 'no stale recovery');
  t.deepEqual(monitor.check(snapshot(90, 95), thresholds, 2_000), [], 'not held long enough');
  const fired = monitor.check(snapshot(90, 95), thresholds, 12_000);
  t.deepEqual(fired.map((event) => event.event_type).sort(), [
    'resource.cpu.high',
    'resource.disk.high',
  ]);
  t.regex(
    fired.find((event) => event.event_type === 'resource.disk.high')?.title ?? '',
    /at \/data/,
  );
  t.deepEqual(monitor.check(snapshot(90, 95), thresholds, 20_000), [], 'once per activation');
  const recovered = monitor.check(snapshot(10, 95), thresholds, 30_000);
  t.deepEqual(
    recovered.map((event) => [event.event_type, event.recovered_event_type]),
    [['recovery', 'resource.cpu.high']],
  );
});

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

test('payloads follow each receiver convention; stored errors carry no URL', (t) => {
  const message = {
    event_id: 'e',
    event_type: 'manual',
    severity: 'critical',
    title: 'Tïtle',
    body: 'Body',
    service_name: 'Web',
    timestamp: 1,
  };
  const discord = JSON.parse(PAYLOADS.discord('https://d/x', message).body);
  t.is(discord.embeds[0].title, 'Tïtle');
  t.is(discord.embeds[0].color, 0xe74c3c);
  const ntfy = PAYLOADS.ntfy('https://ntfy.sh/topic', message);
  t.is(ntfy.body, 'Body');
  t.is(ntfy.headers.priority, '5');
  t.regex(ntfy.headers.title ?? '', /^=\?UTF-8\?B\?/);
  t.like(JSON.parse(PAYLOADS.apprise('http://a/notify/k', message).body), {
    type: 'failure',
    title: 'Tïtle',
  });
  t.like(JSON.parse(PAYLOADS.webhook('http://w', message).body), {
    source: 'stackd',
    severity: 'critical',
  });
  t.is(
    safeError('connect ECONNREFUSED https://user:pw@hook.example/secret'),
    'connect ECONNREFUSED https://[redacted]',
  );
});
