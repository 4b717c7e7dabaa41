/**
 * The filesystems a user can choose to monitor: the mounts this process sees (so inside a
 * container, the container's paths), without kernel pseudo filesystems, without mounts under
 * /proc, /sys, /dev and /run, and without files bind-mounted on their own (Docker's
 * /etc/hosts), each with its usage.
 */
import { compareText } from '../../../sdk/index.js';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readProcFile } from './read-proc-file.js';
import { filesystemUsage } from './filesystems.js';

const PSEUDO_TYPES = new Set([
  'proc',
  'sysfs',
  'cgroup',
  'cgroup2',
  'devpts',
  'devtmpfs',
  'mqueue',
  'debugfs',
  'tracefs',
  'securityfs',
  'pstore',
  'bpf',
  'autofs',
  'configfs',
  'fusectl',
  'hugetlbfs',
  'binfmt_misc',
  'nsfs',
  'rpc_pipefs',
  'selinuxfs',
  'efivarfs',
  'ramfs',
  'overlay-internal',
]);
const SYSTEM_PREFIXES = ['/proc', '/sys', '/dev', '/run'];

export interface MountEntry {
  readonly path: string;
  readonly fs_type: string;
  readonly source: string;
}

export interface MountCandidate extends MountEntry {
  readonly total_bytes: number | null;
  readonly used_bytes: number | null;
  readonly free_bytes: number | null;
  readonly percent: number | null;
  readonly inode_percent: number | null;
}

/** mountinfo escapes space, tab, newline and backslash as octal (`\040`). */
const unescape = (text: string) =>
  text.replace(/\\([0-7]{3})/g, (_, octal: string) =>
    String.fromCharCode(Number.parseInt(octal, 8)),
  );

const underSystemPath = (path: string) =>
  SYSTEM_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/** Every mount of /proc/self/mountinfo, one per path (the last mounted wins), sorted by path. */
export function parseMounts(text: string): MountEntry[] {
  const byPath = new Map<string, MountEntry>();
  for (const line of text.split('\n')) {
    const [head, tail] = line.split(' - ');
    if (head === undefined || tail === undefined) continue;
    const path = unescape(head.split(' ')[4] ?? '');
    const [fsType = '', source = ''] = tail.split(' ');
    if (path.startsWith('/')) byPath.set(path, { path, fs_type: fsType, source: unescape(source) });
  }
  return [...byPath.values()].sort((a, b) => compareText(a.path, b.path));
}

/** The mounts worth offering: no kernel pseudo filesystems, nothing under /proc, /sys, /dev, /run. */
export function parseMountinfo(text: string): MountEntry[] {
  return parseMounts(text).filter(
    (mount) => !PSEUDO_TYPES.has(mount.fs_type) && !underSystemPath(mount.path),
  );
}

/** The mount holding `path`: the longest mount point it lies under. */
export function mountHolding(path: string, mounts: readonly MountEntry[]): MountEntry | undefined {
  let best: MountEntry | undefined;
  for (const mount of mounts) {
    const under = mount.path === '/' || path === mount.path || path.startsWith(`${mount.path}/`);
    if (under && (best === undefined || mount.path.length > best.path.length)) best = mount;
  }
  return best;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The candidates with their usage; mounts that cannot be read or hold no space are left out. */
export async function mountCandidates(procRoot = '/proc'): Promise<MountCandidate[]> {
  const text = readProcFile(join(procRoot, 'self', 'mountinfo')) ?? '';
  const found = await Promise.all(
    parseMountinfo(text).map(async (mount) => {
      if (!(await isDirectory(mount.path))) return null;
      const usage = await filesystemUsage(mount.path);
      if (!usage.available || usage.total_bytes === 0) return null;
      return {
        ...mount,
        total_bytes: usage.total_bytes,
        used_bytes: usage.used_bytes,
        free_bytes: usage.free_bytes,
        percent: usage.percent,
        inode_percent: usage.inode_percent,
      };
    }),
  );
  return found.filter((candidate): candidate is MountCandidate => candidate !== null);
}
