/**
 * The launch floor: the smallest program doing the work every stackd launch must do, beside the
 * bare spawn loop (spawn-floor.ts). Per process: its own cgroup directory in each usable
 * hierarchy (found as the host finds it), a pair of output FIFOs (made for the whole wave by one
 * `mkfifo`) read through non-blocking sockets, the spawn through the same `sh` wrapper that puts
 * the process in its cgroups before the program runs, and a launch record made durable (temp
 * file, fsync, rename, one folder fsync per wave) before the process counts as running.
 * Restart: SIGTERM to the group, wait for the exit, remove the cgroups, the record and the FIFOs,
 * launch again. No HTTP, no journal, no state: what is left between this and stackd is stackd's
 * own cost.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { writeFilesAtomic } from '../../sdk/atomic-file.js';
import {
  argvInCgroups,
  floorArguments,
  floorCgroups,
  removeFloorCgroups,
  serveFloor,
  stopGroup,
} from './floor-agent.js';

const { count, command } = floorArguments('launch-floor.js');
const work = mkdtempSync(join(tmpdir(), 'stackd-launch-floor-'));
let wave = 0;

interface Launched {
  readonly child: ChildProcess;
  readonly dirs: readonly string[];
  readonly files: readonly string[];
}
let launched: Launched[] = [];

const cgroups = await floorCgroups(`stackd-launch-floor-${process.pid}`);
const { bases } = cgroups;

function launchOne(index: number, fifo: string): Promise<Launched> {
  const dirs = bases.map((base) => join(base, `floor-${wave}-${index}`));
  const streams = ['out', 'err'].map((end) => `${fifo}.${end}`);
  const readEnds = streams.map((path) => openSync(path, constants.O_RDONLY | constants.O_NONBLOCK));
  const childEnds = streams.map((path) => openSync(path, constants.O_RDWR));
  const procsFiles = dirs.map((dir) => join(dir, 'cgroup.procs'));
  const [file, ...args] = argvInCgroups(procsFiles, command);
  const child = spawn(file, args, {
    detached: true,
    stdio: ['ignore', childEnds[0], childEnds[1]],
  });
  for (const fd of readEnds) new Socket({ fd, readable: true, writable: false }).resume();
  return new Promise((resolve, reject) => {
    child.once('spawn', () => {
      for (const fd of childEnds) closeSync(fd);
      resolve({ child, dirs, files: streams });
    });
    child.once('error', reject);
  });
}

async function launchAll(): Promise<Launched[]> {
  wave += 1;
  const fifos = Array.from({ length: count }, (_, index) => join(work, `${wave}-${index}`));
  await promisify(execFile)('mkfifo', [
    '-m',
    '600',
    ...fifos.flatMap((path) => [`${path}.out`, `${path}.err`]),
  ]);
  const started = await Promise.all(
    fifos.map(async (fifo, index) => {
      const dirs = bases.map((base) => join(base, `floor-${wave}-${index}`));
      await Promise.all(dirs.map((dir) => mkdir(dir)));
      return launchOne(index, fifo);
    }),
  );
  const records = started.map(({ child }, index) => ({
    path: join(work, 'records', `${index}.json`),
    data: JSON.stringify({ pid: child.pid, started_at: Date.now(), wave }),
  }));
  await writeFilesAtomic(records);
  return started.map((one, index) => ({
    ...one,
    files: [...one.files, records[index]?.path ?? ''],
  }));
}

async function stopOne({ child, dirs, files }: Launched): Promise<void> {
  await stopGroup(child);
  await Promise.all(dirs.map((dir) => rmdir(dir).catch(() => undefined)));
  await Promise.all(files.map((path) => rm(path, { force: true })));
}

const pids = (): number[] =>
  launched.flatMap(({ child }) => (child.pid === undefined ? [] : [child.pid]));

serveFloor({
  start: async () => {
    launched = await launchAll();
  },
  restart: async () => {
    await Promise.all(launched.map(stopOne));
    launched = await launchAll();
  },
  stop: async () => {
    await Promise.all(launched.map(stopOne));
    launched = [];
    await removeFloorCgroups(cgroups);
    rmSync(work, { recursive: true, force: true });
  },
  pids,
});
