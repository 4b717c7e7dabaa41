/** Resource thresholds: sent once after their duration, once on recovery, never for the baseline. */
import test from 'ava';
import { ThresholdMonitor } from '../../../../plugins/notifications/events/threshold-monitor.js';
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
