import test from 'ava';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../../helpers/eventually.js';
import { SystemCollector } from '../../../plugins/metrics/system/system-collector.js';
import { counterIncrease, ratePerSecond } from '../../../plugins/metrics/rates.js';

const inRange = (value: number | null, low: number, high: number): boolean =>
  value !== null && value >= low && value <= high;

test('on this machine: percentages within 0–100, sizes above zero, cpu after two samples', async (t) => {
  const missing = join(tmpdir(), 'stackd-metrics-no-such-dir', 'x');
  const collector = new SystemCollector({
    filesystemPaths: ['/', tmpdir(), missing],
    networkInterfaces: ['all'],
    scope: 'auto',
  });
  const first = await collector.collect();
  t.is(first.cpu_percent, null, 'no cpu percent without a previous reading');
  // Two readings within one clock tick have no CPU time between them: read until one has.
  const second = await eventually(
    async () => {
      const sample = await collector.collect();
      return sample.cpu_percent === null ? undefined : sample;
    },
    { what: 'a reading one clock tick after the first' },
  );
  t.true(inRange(second.cpu_percent, 0, 100));
  t.true(second.cpu_count > 0);
  t.is(second.load_avg.length, 3);
  t.true(second.memory.total_bytes > 0);
  t.true(second.memory.used_bytes > 0 && second.memory.used_bytes <= second.memory.total_bytes);
  t.true(inRange(second.memory.percent, 0, 100));
  t.true(inRange(second.swap.percent, 0, 100));
  t.true(second.uptime_sec > 0);
  const [root, temp, absent] = second.filesystems;
  t.is(root?.path, '/');
  t.true(root?.available);
  t.true((root?.total_bytes ?? 0) > 0);
  t.true(inRange(root?.percent ?? null, 0, 100));
  t.is(root?.mount_point, '/', 'the mount holding the path is named');
  t.truthy(root?.fs_type);
  t.true(temp?.available);
  t.deepEqual(absent, {
    path: missing,
    available: false,
    total_bytes: null,
    used_bytes: null,
    free_bytes: null,
    percent: null,
    inodes_total: null,
    inodes_used: null,
    inodes_free: null,
    inode_percent: null,
  });
  t.not(second.disk_io, null);
  t.true((second.disk_io?.read_bytes_per_sec ?? -1) >= 0);
  t.not(second.network, null);
  t.false(
    second.network?.interfaces.some((nic) => nic.name === 'lo'),
    '"all" leaves loopback out',
  );
});

test('named interfaces: a missing one is listed unavailable and left out of the sum', async (t) => {
  const collector = new SystemCollector({
    filesystemPaths: ['/'],
    networkInterfaces: ['lo', 'stackd-missing0'],
    scope: 'host',
  });
  const sample = await collector.collect();
  const [lo, missing] = sample.network?.interfaces ?? [];
  t.is(lo?.name, 'lo');
  t.true(lo?.available);
  t.is(missing?.available, false);
  t.is(missing?.rx_bytes, 0);
  t.is(sample.network?.rx_bytes, lo?.rx_bytes);
  t.is(sample.scope, 'host');
});

test('counter arithmetic: increase, reset counts the new value, no rate without history', (t) => {
  t.is(counterIncrease(100, 160), 60);
  t.is(counterIncrease(160, 40), 40);
  t.is(ratePerSecond(100, 160, 10), 6);
  t.is(ratePerSecond(undefined, 160, 10), null);
  t.is(ratePerSecond(100, 160, 0), null);
});

/** A /proc-shaped folder the collector reads instead of the real one. */
function fakeProc(): {
  root: string;
  sysBlock: string;
  write: (disk: number, net: number) => void;
} {
  const root = mkdtempSync(join(tmpdir(), 'stackd-fake-proc-'));
  const sysBlock = join(root, 'sys-block');
  mkdirSync(join(root, 'net'));
  mkdirSync(join(sysBlock, 'vda'), { recursive: true });
  writeFileSync(join(root, 'stat'), 'cpu  100 0 100 800 0 0 0 0 0 0\n');
  writeFileSync(
    join(root, 'meminfo'),
    'MemTotal: 1000 kB\nMemAvailable: 250 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n',
  );
  writeFileSync(join(root, 'loadavg'), '1.00 0.50 0.25 1/1 1\n');
  writeFileSync(join(root, 'uptime'), '1234.5 100.0\n');
  const write = (diskSectors: number, netBytes: number): void => {
    writeFileSync(
      join(root, 'diskstats'),
      ` 254 0 vda 10 0 ${diskSectors} 0 10 0 ${diskSectors * 2} 0 0 0 0\n 254 1 vda1 10 0 ${diskSectors} 0 10 0 ${diskSectors * 2} 0 0 0 0\n`,
    );
    writeFileSync(
      join(root, 'net', 'dev'),
      `Inter-| h\n face |h\n  eth0: ${netBytes} 1 0 0 0 0 0 0 ${netBytes * 3} 1 0 0 0 0 0 0\n`,
    );
  };
  write(1000, 10_000);
  return { root, sysBlock, write };
}

async function timedPair(
  collector: SystemCollector,
  between: () => void,
): Promise<{
  second: Awaited<ReturnType<SystemCollector['collect']>>;
  minSec: number;
  maxSec: number;
}> {
  const start = performance.now();
  await collector.collect();
  const firstDone = performance.now();
  between();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const secondStart = performance.now();
  const second = await collector.collect();
  const end = performance.now();
  return { second, minSec: (secondStart - firstDone) / 1000, maxSec: (end - start) / 1000 };
}

test('disk and network rates come from two readings', async (t) => {
  const proc = fakeProc();
  const collector = new SystemCollector({
    filesystemPaths: ['/'],
    networkInterfaces: ['eth0'],
    scope: 'host',
    procRoot: proc.root,
    sysBlockRoot: proc.sysBlock,
  });
  const { second, minSec, maxSec } = await timedPair(collector, () => proc.write(3000, 50_000));
  t.is(second.memory.percent, 75);
  t.deepEqual(second.load_avg, [1, 0.5, 0.25]);
  t.is(second.uptime_sec, 1234.5);
  const io = second.disk_io;
  t.is(io?.read_bytes, 3000 * 512, 'the partition is not counted twice');
  const readRate = io?.read_bytes_per_sec ?? 0;
  t.true(readRate >= (2000 * 512) / maxSec && readRate <= (2000 * 512) / minSec);
  const writeRate = io?.write_bytes_per_sec ?? 0;
  t.true(writeRate >= (4000 * 512) / maxSec && writeRate <= (4000 * 512) / minSec);
  const rx = second.network?.rx_bytes_per_sec ?? 0;
  t.true(rx >= 40_000 / maxSec && rx <= 40_000 / minSec);
  t.is(second.network?.interfaces[0]?.tx_bytes, 150_000);
});

test('a counter that goes down (reset) rates its new value, never a negative rate', async (t) => {
  const proc = fakeProc();
  proc.write(1000, 500_000);
  const collector = new SystemCollector({
    filesystemPaths: ['/'],
    networkInterfaces: ['eth0'],
    scope: 'host',
    procRoot: proc.root,
    sysBlockRoot: proc.sysBlock,
  });
  const { second, minSec, maxSec } = await timedPair(collector, () => proc.write(1000, 2_000));
  const rx = second.network?.rx_bytes_per_sec ?? -1;
  t.true(rx >= 2_000 / maxSec && rx <= 2_000 / minSec);
  t.is(second.disk_io?.read_bytes_per_sec, 0);
});

test('a cgroup with a memory limit below the host: container figures (auto scope)', async (t) => {
  const proc = fakeProc();
  const cgroup = mkdtempSync(join(tmpdir(), 'stackd-fake-cgroup-'));
  writeFileSync(join(cgroup, 'cgroup.controllers'), 'cpu memory io\n');
  writeFileSync(join(cgroup, 'memory.max'), `${400 * 1024}\n`);
  writeFileSync(join(cgroup, 'memory.current'), `${300 * 1024}\n`);
  writeFileSync(join(cgroup, 'memory.stat'), `anon 1\ninactive_file ${100 * 1024}\n`);
  writeFileSync(join(cgroup, 'cpu.max'), '50000 100000\n');
  writeFileSync(join(cgroup, 'cpu.stat'), 'usage_usec 1000000\n');
  const options = {
    filesystemPaths: ['/'],
    networkInterfaces: ['all'],
    procRoot: proc.root,
    sysBlockRoot: proc.sysBlock,
    cgroupRoot: cgroup,
  };
  const collector = new SystemCollector({ ...options, scope: 'auto' });
  await collector.collect();
  writeFileSync(join(cgroup, 'cpu.stat'), 'usage_usec 1010000\n');
  const sample = await collector.collect();
  t.is(sample.scope, 'cgroup');
  t.is(sample.cpu_count, 0.5);
  t.is(sample.memory.total_bytes, 400 * 1024);
  t.is(sample.memory.used_bytes, 200 * 1024, 'inactive page cache is not counted');
  t.is(sample.memory.percent, 50);
  t.true(inRange(sample.cpu_percent, 0, 100));

  const host = await new SystemCollector({ ...options, scope: 'host' }).collect();
  t.is(host.scope, 'host');
  t.is(host.memory.total_bytes, 1000 * 1024);

  writeFileSync(join(cgroup, 'memory.max'), 'max\n');
  writeFileSync(join(cgroup, 'cpu.max'), 'max 100000\n');
  const unlimited = await new SystemCollector({ ...options, scope: 'auto' }).collect();
  t.is(unlimited.scope, 'host', 'no limit: the host view is the right one');
});

test('cgroup v1 hierarchy: limit_in_bytes and cfs quota', async (t) => {
  const proc = fakeProc();
  const cgroup = mkdtempSync(join(tmpdir(), 'stackd-fake-cgroup1-'));
  for (const dir of ['memory', 'cpu', 'cpuacct']) mkdirSync(join(cgroup, dir));
  writeFileSync(join(cgroup, 'memory', 'memory.limit_in_bytes'), `${500 * 1024}\n`);
  writeFileSync(join(cgroup, 'memory', 'memory.usage_in_bytes'), `${100 * 1024}\n`);
  writeFileSync(join(cgroup, 'memory', 'memory.stat'), 'total_inactive_file 0\n');
  writeFileSync(join(cgroup, 'cpu', 'cpu.cfs_quota_us'), '-1\n');
  writeFileSync(join(cgroup, 'cpu', 'cpu.cfs_period_us'), '100000\n');
  writeFileSync(join(cgroup, 'cpuacct', 'cpuacct.usage'), '5000000\n');
  const sample = await new SystemCollector({
    filesystemPaths: ['/'],
    networkInterfaces: ['all'],
    scope: 'auto',
    procRoot: proc.root,
    sysBlockRoot: proc.sysBlock,
    cgroupRoot: cgroup,
  }).collect();
  t.is(sample.scope, 'cgroup');
  t.is(sample.memory.percent, 20);
  t.true(sample.cpu_count >= 1, 'no quota: the host CPUs');
});
