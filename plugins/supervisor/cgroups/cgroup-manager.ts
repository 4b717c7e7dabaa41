/**
 * stackd's cgroups: detection at start, one cgroup per launch, and their clean-up — at each
 * process's stop, at the host's stop, and at the next start after a host was killed (members of
 * a leftover cgroup are killed, then it is removed). The directory is named after the data dir,
 * so hosts on other data dirs never touch each other's cgroups.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../../sdk/index.js';
import { detectCgroups, layoutBases, type CgroupLayout } from './cgroup-detect.js';
import {
  cgroupFromRecord,
  childDirs,
  isRecordedCgroup,
  killLaunchCgroup,
  launchCgroupOf,
  launchMembers,
  removeLaunchCgroup,
  type LaunchCgroup,
  type RecordedCgroup,
} from './launch-cgroup.js';

/** `auto`: use cgroups where the machine allows; `off`: never (the watch path). */
export type CgroupMode = 'auto' | 'off';

/** Where the manager looks (tests point these at a temp dir). */
export interface CgroupManagerOptions {
  readonly mode: CgroupMode;
  readonly dataDir: string;
  readonly logger: Logger;
  readonly mountsFile?: string;
  readonly selfCgroupFile?: string;
}

/**
 * A leftover cgroup that should be kept (its processes are being adopted); stackd's own clean-up
 * kills the members of every other one.
 */
export type KeepLeftover = (name: string) => boolean;

const V2_CONTROLLERS = ['memory', 'pids', 'cpu'];

/** Detects the layout once and hands out per-launch cgroups. */
export class CgroupManager {
  private layout: CgroupLayout = { kind: 'none', why: 'not detected yet' };
  private opening: Promise<void> | undefined;
  private detecting: Promise<void> | undefined;
  private basesMade: Promise<void> | undefined;

  constructor(private readonly options: CgroupManagerOptions) {}

  /** The directory name under the host's own cgroup. */
  get dirName(): string {
    const hash = createHash('sha256').update(this.options.dataDir).digest('hex');
    return `stackd-${hash.slice(0, 12)}`;
  }

  /** Detect and clean up a previous host's leftovers. Idempotent. */
  open(keep: KeepLeftover = () => false): Promise<void> {
    this.opening ??= this.load(keep);
    return this.opening;
  }

  private async load(keep: KeepLeftover): Promise<void> {
    await this.detect();
    if (this.options.mode !== 'off') await this.cleanLeftovers(keep);
  }

  /** Detect the layout once, without touching leftovers. */
  detect(): Promise<void> {
    this.detecting ??= this.detectLayout();
    return this.detecting;
  }

  private async detectLayout(): Promise<void> {
    if (this.options.mode === 'off') {
      this.layout = { kind: 'none', why: 'cgroups off by config' };
      return;
    }
    const [mounts, selfCgroup] = await Promise.all([
      readFile(this.options.mountsFile ?? '/proc/self/mounts', 'utf8').catch(() => ''),
      readFile(this.options.selfCgroupFile ?? '/proc/self/cgroup', 'utf8').catch(() => ''),
    ]);
    this.layout = await detectCgroups({ mounts, selfCgroup, dirName: this.dirName });
    this.options.logger.info(`process isolation: ${this.describe()}`);
  }

  /** The detected layout. */
  current(): CgroupLayout {
    return this.layout;
  }

  /** How processes are contained, in words ("cgroup v1 (freezer, memory, …)", "none: …"). */
  describe(): string {
    const layout = this.layout;
    if (layout.kind === 'none') return `none: ${layout.why}`;
    if (layout.kind === 'v2') return 'cgroup v2';
    return `cgroup v1 (${Object.keys(layout.bases).join(', ')})`;
  }

  private bases(): string[] {
    return layoutBases(this.layout);
  }

  /** Kill the members of every leftover launch cgroup not kept, and remove the empty ones. */
  private async cleanLeftovers(keep: KeepLeftover): Promise<void> {
    const names = new Set((await Promise.all(this.bases().map(childDirs))).flat());
    const doomed = [...names].filter((name) => !keep(name));
    let killed = 0;
    for (const name of doomed) {
      const cgroup = launchCgroupOf(this.layout, name);
      if (cgroup === null) continue;
      killed += (await launchMembers(cgroup)).length;
      await killLaunchCgroup(cgroup);
      await removeLaunchCgroup(cgroup);
    }
    if (killed > 0)
      this.options.logger.warn(
        `killed ${killed} process(es) left in the cgroups of a previous host`,
      );
  }

  /** Kill and remove the leftover cgroups of these launch ids (verified, then not adopted). */
  async dropLeftovers(launchIds: readonly string[]): Promise<void> {
    if (launchIds.length === 0) return;
    await this.open();
    await this.cleanLeftovers((name) => !launchIds.some((id) => name.endsWith(`-${id}`)));
  }

  /**
   * The cgroup a previous host made for a launch (adopted now), or null when there is none.
   * `recorded` is the one its launch record names: then the detection is not waited for (its
   * probes wait on the kernel, 55–130 ms measured after the listen on a loaded machine, and every
   * adoption of a boot waited for them). Records of older hosts name none (undefined).
   */
  async existing(
    processName: string,
    launchId: string,
    recorded?: RecordedCgroup | null,
  ): Promise<LaunchCgroup | null> {
    if (this.options.mode === 'off' || recorded === null) return null;
    const cgroup = isRecordedCgroup(recorded)
      ? cgroupFromRecord(recorded)
      : await this.detectedCgroup(processName, launchId);
    const first = cgroup?.dirs[0];
    if (cgroup === null || first === undefined) return null;
    // Synchronous: a cgroup directory's stat does not block, and the boot's adoptions must not
    // queue in libuv's pool behind the detection's probes.
    return statSync(first, { throwIfNoEntry: false })?.isDirectory() === true ? cgroup : null;
  }

  private async detectedCgroup(
    processName: string,
    launchId: string,
  ): Promise<LaunchCgroup | null> {
    // Detection only: an adoption may come before open(), whose clean-up must know what to keep.
    await this.detect();
    return launchCgroupOf(this.layout, launchCgroupName(processName, launchId));
  }

  /** Create the cgroup of a new launch; null without cgroups or when creating it failed. */
  async create(processName: string, launchId: string): Promise<LaunchCgroup | null> {
    await this.open();
    const cgroup = launchCgroupOf(this.layout, launchCgroupName(processName, launchId));
    if (cgroup === null) return null;
    try {
      await this.makeLaunchDirs(cgroup);
      return cgroup;
    } catch (error) {
      this.options.logger.warn(`${processName}: could not create its cgroup`, { error });
      await removeLaunchCgroup(cgroup);
      return null;
    }
  }

  /**
   * The launch's directories. The bases are made once, not per launch: their recursive mkdirs (a
   * path walk ending in EEXIST, per hierarchy) were repeated by every one of 1,000 starts. A base
   * removed meanwhile (the host's stop removes them) is made again.
   */
  private async makeLaunchDirs(cgroup: LaunchCgroup): Promise<void> {
    await (this.basesMade ??= this.makeBases());
    try {
      await Promise.all(cgroup.dirs.map((dir) => mkdir(dir)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await (this.basesMade = this.makeBases());
      await Promise.all(cgroup.dirs.map((dir) => mkdir(dir).catch(ignoreExisting)));
    }
  }

  private async makeBases(): Promise<void> {
    try {
      await Promise.all(this.bases().map((base) => mkdir(base, { recursive: true })));
    } catch (error) {
      this.basesMade = undefined; // the next launch tries again
      throw error;
    }
    if (this.layout.kind === 'v2') await this.enableV2Controllers(this.layout.base);
  }

  /** Let the launch cgroups under `base` use memory, pids and cpu (best effort). */
  private async enableV2Controllers(base: string): Promise<void> {
    const layout = this.layout;
    if (layout.kind !== 'v2') return;
    const wanted = V2_CONTROLLERS.filter((name) => layout.controllers.includes(name));
    if (wanted.length === 0) return;
    const line = wanted.map((name) => `+${name}`).join(' ');
    // The parent must delegate them to `base` first; a parent holding processes refuses.
    await writeFile(join(base, '..', 'cgroup.subtree_control'), line).catch(() => undefined);
    await writeFile(join(base, 'cgroup.subtree_control'), line).catch(() => undefined);
  }

  /** Host stop: remove every empty launch cgroup and the base directories. */
  async removeAll(): Promise<void> {
    this.basesMade = undefined;
    for (const base of this.bases()) {
      for (const name of await childDirs(base))
        await rmdir(join(base, name)).catch(() => undefined);
      await rmdir(base).catch(() => undefined);
    }
  }
}

function ignoreExisting(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EEXIST') throw error;
}

/** A launch's cgroup directory name: the process name made safe, then the launch id. */
function launchCgroupName(processName: string, launchId: string): string {
  return `${processName.replace(/[^\w.-]/g, '_').slice(0, 60)}-${launchId}`;
}
