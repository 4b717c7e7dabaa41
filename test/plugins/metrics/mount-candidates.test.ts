import test from 'ava';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  mountHolding,
  parseMountinfo,
  parseMounts,
} from '../../../plugins/metrics/system/mount-candidates.js';
import { linkInfo } from '../../../plugins/metrics/system/interface-candidates.js';

const MOUNTINFO = [
  '22 27 0:21 / /proc rw,relatime - proc proc rw',
  '24 27 0:6 / /dev rw,relatime - devtmpfs devtmpfs rw',
  '27 1 254:0 / / rw,relatime - ext4 /dev/vda rw',
  '40 27 254:1 /srv /data rw,relatime - xfs /dev/vdb rw',
  '41 40 0:50 / /data/media\\040library rw - fuse.rclone remote:\\040x rw',
  '42 27 0:51 / /run/secrets rw - tmpfs tmpfs rw',
  '43 27 0:52 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw',
  '44 27 254:0 /hosts /etc/hosts rw - ext4 /dev/vda rw',
  'garbage line',
].join('\n');

test('mountinfo: escapes decoded, pseudo and system mounts left out', (t) => {
  t.deepEqual(
    parseMountinfo(MOUNTINFO).map((mount) => [mount.path, mount.fs_type]),
    [
      ['/', 'ext4'],
      ['/data', 'xfs'],
      ['/data/media library', 'fuse.rclone'],
      ['/etc/hosts', 'ext4'],
    ],
  );
  t.is(parseMountinfo(MOUNTINFO)[2]?.source, 'remote: x');
  t.is(parseMounts(MOUNTINFO).length, 8, 'every mount is known for naming a path');
});

test('a path is held by the longest mount point above it', (t) => {
  const mounts = parseMounts(MOUNTINFO);
  t.is(mountHolding('/data/media library/films', mounts)?.fs_type, 'fuse.rclone');
  t.is(mountHolding('/data/media', mounts)?.path, '/data', 'a name prefix is not a parent');
  t.is(mountHolding('/srv', mounts)?.path, '/');
  t.is(mountHolding('/data', mounts)?.path, '/data');
});

test('link info: operstate, IFF_UP for unknown, loopback flag, no speed when none', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'stackd-sysnet-'));
  const link = (name: string, files: Record<string, string>) => {
    mkdirSync(join(root, name));
    for (const [file, text] of Object.entries(files)) writeFileSync(join(root, name, file), text);
  };
  link('eth0', { operstate: 'up\n', flags: '0x1003\n', speed: '1000\n', mtu: '1500\n' });
  link('lo', { operstate: 'unknown\n', flags: '0x9\n', mtu: '65536\n' });
  link('ifb0', { operstate: 'down\n', flags: '0x82\n', speed: '-1\n', mtu: '1500\n' });
  t.deepEqual(linkInfo('eth0', root), {
    is_up: true,
    loopback: false,
    speed_mbps: 1000,
    mtu: 1500,
  });
  t.deepEqual(linkInfo('lo', root), { is_up: true, loopback: true, speed_mbps: null, mtu: 65536 });
  t.deepEqual(linkInfo('ifb0', root), {
    is_up: false,
    loopback: false,
    speed_mbps: null,
    mtu: 1500,
  });
  t.deepEqual(linkInfo('missing', root), {
    is_up: false,
    loopback: false,
    speed_mbps: null,
    mtu: null,
  });
});
