/**
 * The memory floor of the scale series: a bare Node process holding N children the way stackd's
 * supervisor holds each one, and nothing else — no API, no plugins, no log files, no metrics.
 * Per child, with stackd's own modules: an output FIFO pair made ahead in batches (the host reads
 * one end of each through a net.Socket, the child holds the other), the launch's cgroup (one
 * directory per hierarchy, the `sh` wrapper writing the pid into each `cgroup.procs` before it
 * execs the program), its own process group (`detached`), and the exit watch (the ChildProcess's
 * `exit` event). Output read is dropped. Restart: SIGTERM to the group, the exit, the cgroup
 * emptied and removed, the FIFOs removed, a new launch — all children at once, like the bench's
 * restart-all. It runs with the host's V8 settings, and a few seconds after each wave it makes
 * one compacting full collection, so what it holds afterwards is the least a Node process holding
 * these children can be left with: a floor, not a rival (stackd itself does not pause its loop
 * for such a collection). Served as a bench agent (agent-protocol.ts).
 */
import '../../host/v8-settings.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  childOutput,
  removeFifos,
  type FifoPaths,
} from '../../plugins/supervisor/adoption/output-fifo.js';
import {
  killLaunchCgroup,
  launchCgroupOf,
  removeLaunchCgroup,
  type LaunchCgroup,
} from '../../plugins/supervisor/cgroups/launch-cgroup.js';
import {
  argvInCgroups,
  exitOf,
  floorArguments,
  floorCgroups,
  removeFloorCgroups,
  serveFloor,
  stopGroup,
  type FloorCgroups,
} from '../supervision/floor-agent.js';

const { count, command } = floorArguments('held-floor.js');
const fifoDir = join(tmpdir(), `stackd-bench-floor-${process.pid}`);

interface Held {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly cgroup: LaunchCgroup | null;
  readonly fifos: FifoPaths | null;
  readonly exited: Promise<void>;
}

let cgroups: FloorCgroups = { layout: { kind: 'none', why: 'not detected' }, bases: [] };
let held: Held[] = [];
let launches = 0;

async function launchOne(): Promise<Held> {
  const cgroup = launchCgroupOf(cgroups.layout, `floor-${(launches += 1)}`);
  if (cgroup !== null) await Promise.all(cgroup.dirs.map((dir) => mkdir(dir)));
  const output = await childOutput(fifoDir);
  const [file, ...args] = argvInCgroups(cgroup?.procsFiles ?? [], command);
  const child = spawn(file, args, { detached: true, stdio: output.stdio });
  output.follow(child, () => undefined);
  const exited = exitOf(child);
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const fifos = output.spawned(child.pid);
  return { child, pid: child.pid ?? Number.NaN, cgroup, fifos, exited };
}

async function stopOne(entry: Held): Promise<void> {
  await stopGroup(entry.child, entry.exited);
  if (entry.cgroup !== null) {
    await killLaunchCgroup(entry.cgroup);
    await removeLaunchCgroup(entry.cgroup);
  }
  if (entry.fifos !== null) removeFifos(entry.fifos);
}

/** One compacting full collection (V8 offers it only through `--expose-gc`, set just for this). */
function compactHeap(): void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  setFlagsFromString('--no-expose-gc');
  if (typeof gc !== 'function') return;
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    (gc as () => void)();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

/** After a wave has settled, outside the timed step. */
const WAVE_SETTLE_MS = 5_000;

serveFloor({
  start: async () => {
    cgroups = await floorCgroups(`stackd-floor-${process.pid}`);
    held = await Promise.all(Array.from({ length: count }, launchOne));
    setTimeout(compactHeap, WAVE_SETTLE_MS).unref();
  },
  restart: async () => {
    held = await Promise.all(held.map(async (entry) => (await stopOne(entry), launchOne())));
    setTimeout(compactHeap, WAVE_SETTLE_MS).unref();
  },
  stop: async () => {
    await Promise.all(held.map(stopOne));
    held = [];
    await removeFloorCgroups(cgroups);
    await rm(fifoDir, { recursive: true, force: true });
  },
  pids: () => held.map((entry) => entry.pid),
});
