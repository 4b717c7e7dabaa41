/**
 * Which cgroup hierarchy stackd may use, found from the mount table and the host's own cgroup
 * (never assumed): a writable cgroup v2 sub-tree with `cgroup.kill`, else the writable v1
 * hierarchies (freezer, memory, pids, cpu, cpuacct), else none — then stops fall back to the
 * process group and the launch marker, and limits to a watch of the tree-summed usage.
 * Paths come in as text so tests can point them at a temp dir standing in for /sys/fs/cgroup.
 */
import { constants } from 'node:fs';
import { access, mkdir, readFile, rmdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The v1 controllers stackd uses. */
export const V1_CONTROLLERS = ['freezer', 'memory', 'pids', 'cpu', 'cpuacct'] as const;
/** One of {@link V1_CONTROLLERS}. */
export type V1Controller = (typeof V1_CONTROLLERS)[number];

/** What the machine lets stackd do. */
export type CgroupLayout =
  | { readonly kind: 'v2'; readonly base: string; readonly controllers: readonly string[] }
  | { readonly kind: 'v1'; readonly bases: Readonly<Partial<Record<V1Controller, string>>> }
  | { readonly kind: 'none'; readonly why: string };

/**
 * The directories stackd's cgroups live in, one per hierarchy (v1 controllers mounted together
 * share one); none without cgroups.
 */
export function layoutBases(layout: CgroupLayout): string[] {
  if (layout.kind === 'none') return [];
  return layout.kind === 'v2' ? [layout.base] : [...new Set(Object.values(layout.bases))];
}

/** The inputs of detection: /proc/self/mounts and /proc/self/cgroup as text. */
export interface DetectInput {
  readonly mounts: string;
  readonly selfCgroup: string;
  /** The directory name stackd's cgroups live under, inside the host's own cgroup. */
  readonly dirName: string;
}

interface Mount {
  readonly path: string;
  readonly type: string;
  readonly options: readonly string[];
}

function parseMounts(text: string): Mount[] {
  return text
    .split('\n')
    .map((line) => line.split(' '))
    .filter((fields) => fields.length >= 4)
    .map(([, path = '', type = '', options = '']) => ({
      path: path.replace(/\\040/g, ' '),
      type,
      options: options.split(','),
    }));
}

/** hierarchy controllers ("" for v2) → the host's own path in it. */
function parseSelfCgroup(text: string): Map<string, string> {
  const own = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line.trim());
    if (match === null) continue;
    for (const controller of (match[1] ?? '').split(',')) own.set(controller, match[2] ?? '/');
  }
  return own;
}

async function writableDir(dir: string, tag = 'v2'): Promise<boolean> {
  // Creating and removing a probe is the only honest test: a read-only bind shows mode 0755 too.
  // The tag keeps parallel probes of co-mounted controllers (cpu,cpuacct) apart.
  const probe = join(dir, `.stackd-probe-${process.pid}-${tag}`);
  try {
    await mkdir(probe);
    await rmdir(probe);
    return true;
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path, constants.F_OK).then(
    () => true,
    () => false,
  );
}

/** The host's own directory in a hierarchy mounted at `mount` (the mount's root in a namespace). */
async function ownDir(mount: string, ownPath: string | undefined): Promise<string> {
  const candidate = join(mount, ownPath ?? '/');
  return (await exists(candidate)) ? candidate : mount;
}

async function detectV2(mounts: Mount[], own: Map<string, string>, dirName: string) {
  const mount = mounts.find((entry) => entry.type === 'cgroup2');
  if (mount === undefined) return null;
  const dir = await ownDir(mount.path, own.get(''));
  // Without cgroup.kill (Linux < 5.14) a stop could not reach every member atomically.
  if (!(await exists(join(dir, 'cgroup.kill'))) || !(await writableDir(dir))) return null;
  const controllers = (await readFile(join(dir, 'cgroup.controllers'), 'utf8').catch(() => ''))
    .trim()
    .split(/\s+/)
    .filter((name) => name !== '');
  return { kind: 'v2' as const, base: join(dir, dirName), controllers };
}

async function detectV1(mounts: Mount[], own: Map<string, string>, dirName: string) {
  const bases: Partial<Record<V1Controller, string>> = {};
  // The probes at once: removing a cgroup waits for the kernel (an RCU grace period), and five
  // of them in a row held up the adoption of every process at a restart of the host.
  await Promise.all(
    V1_CONTROLLERS.map(async (controller) => {
      const mount = mounts.find(
        (entry) => entry.type === 'cgroup' && entry.options.includes(controller),
      );
      if (mount === undefined) return;
      const dir = await ownDir(mount.path, own.get(controller));
      if (await writableDir(dir, controller)) bases[controller] = join(dir, dirName);
    }),
  );
  // Stops need a hierarchy that holds every descendant; any writable one does.
  return Object.keys(bases).length === 0 ? null : { kind: 'v1' as const, bases };
}

/** Detect the usable cgroup layout. */
export async function detectCgroups(input: DetectInput): Promise<CgroupLayout> {
  const mounts = parseMounts(input.mounts);
  const own = parseSelfCgroup(input.selfCgroup);
  if (!mounts.some((entry) => entry.type === 'cgroup' || entry.type === 'cgroup2'))
    return { kind: 'none', why: 'no cgroup filesystem mounted' };
  const v2 = await detectV2(mounts, own, input.dirName);
  if (v2 !== null && v2.controllers.length > 0) return v2;
  const v1 = await detectV1(mounts, own, input.dirName);
  if (v1 !== null) return v1;
  if (v2 !== null) return v2;
  return { kind: 'none', why: 'cgroups not writable' };
}
