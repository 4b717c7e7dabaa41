import test from 'ava';
import {
  parseDiskstats,
  parseIoStat,
  parseKeyValueLines,
  parseLoadavg,
  parseMeminfo,
  parseNetDev,
  parseProcStat,
} from '../../../plugins/metrics/system/proc-parsers.js';
import { countedDisks } from '../../../plugins/metrics/system/block-devices.js';
import { parseLimit } from '../../../plugins/metrics/system/cgroup.js';

test('/proc/stat: busy excludes idle and iowait', (t) => {
  const times = parseProcStat('cpu  100 10 50 800 40 0 0 0 0 0\ncpu0 1 2 3 4\n');
  t.deepEqual(times, { busy: 160, total: 1000 });
  t.is(parseProcStat('intr 1 2 3\n'), null);
});

test('/proc/meminfo: kB to bytes, MemAvailable preferred', (t) => {
  const info = parseMeminfo(
    'MemTotal:  1000 kB\nMemFree: 100 kB\nMemAvailable: 600 kB\nSwapTotal: 200 kB\nSwapFree: 50 kB\n',
  );
  t.deepEqual(info, {
    totalBytes: 1000 * 1024,
    availableBytes: 600 * 1024,
    swapTotalBytes: 200 * 1024,
    swapFreeBytes: 50 * 1024,
  });
  // Without MemAvailable: free + buffers + cached.
  const old = parseMeminfo('MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 50 kB\nCached: 250 kB\n');
  t.is(old.availableBytes, 400 * 1024);
});

test('/proc/loadavg', (t) => {
  t.deepEqual(parseLoadavg('0.50 0.25 0.10 2/90 7132\n'), [0.5, 0.25, 0.1]);
});

test('/proc/diskstats: only counted devices, sectors of 512 bytes', (t) => {
  const text = [
    ' 254       0 vda 100 0 2000 0 50 0 4000 0 0 0 0',
    ' 254       1 vda1 100 0 2000 0 50 0 4000 0 0 0 0',
    '   7       0 loop0 9 0 9 0 9 0 9 0 0 0 0',
    ' 259       0 nvme0n1 1 0 10 0 2 0 20 0 0 0 0',
  ].join('\n');
  const disks = countedDisks(['vda', 'loop0', 'nvme0n1', 'dm-0', 'md0', 'zram0']);
  t.deepEqual([...disks], ['vda', 'nvme0n1']);
  t.deepEqual(parseDiskstats(text, disks), {
    readCount: 101,
    readBytes: 2010 * 512,
    writeCount: 52,
    writeBytes: 4020 * 512,
  });
});

test('/proc/net/dev: counters by interface, headers skipped', (t) => {
  const text = [
    'Inter-|   Receive                                                |  Transmit',
    ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed',
    '    lo: 10 1 0 0 0 0 0 0 10 1 0 0 0 0 0 0',
    '  eth0: 1000 20 1 2 0 0 0 0 500 10 3 4 0 0 0 0',
  ].join('\n');
  const counters = parseNetDev(text);
  t.deepEqual([...counters.keys()], ['lo', 'eth0']);
  t.deepEqual(counters.get('eth0'), {
    rxBytes: 1000,
    rxPackets: 20,
    rxErrors: 1,
    rxDropped: 2,
    txBytes: 500,
    txPackets: 10,
    txErrors: 3,
    txDropped: 4,
  });
});

test('cgroup files: two-token integer lines, io.stat sums, limits', (t) => {
  t.deepEqual(
    [...parseKeyValueLines('usage_usec 12345\ninvalid\nother nope\nextra 1 2\n').entries()],
    [['usage_usec', 12345]],
  );
  t.deepEqual(
    parseIoStat(
      '8:0 rbytes=10 wbytes=20 rios=1 wios=2 dbytes=0\n8:16 rbytes=5 wbytes=7 rios=1 wios=1\n',
    ),
    { readBytes: 15, writeBytes: 27, readCount: 2, writeCount: 3 },
  );
  t.is(parseLimit('max\n'), null);
  t.is(parseLimit('9223372036854771712\n'), null);
  t.is(parseLimit('-1'), null);
  t.is(parseLimit('42\n'), 42);
  t.is(parseLimit(null), null);
});
