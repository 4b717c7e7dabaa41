/**
 * A child's stdout and stderr as named pipes (FIFOs) instead of anonymous pipes, so its output
 * survives a gap between two hosts:
 * - the child gets each FIFO opened read-write: it holds a read end itself, so while no host
 *   reads, its writes fill the kernel's pipe buffer (64 KiB) and then block — never EPIPE or
 *   SIGPIPE, which would kill many programs;
 * - the host reads its own read-only end; the next host reopens the FIFO by its path
 *   (`fifos/<pid>.out|.err` next to the launch records) and reads what waited in the buffer,
 *   in order, exactly once (a pipe hands each byte to one reader).
 * Nothing reaches the disk unredacted: the bytes wait in kernel memory, not in a file.
 * The FIFOs are made ahead in batches (fifo-stock.ts). Where mkfifo is unavailable the launch
 * falls back to ordinary pipes.
 */
import type { ChildProcess } from 'node:child_process';
import { closeSync, constants, openSync, renameSync, rmSync } from 'node:fs';
import { Socket, type OnReadOpts, type SocketConstructorOpts } from 'node:net';
import { fifoStock } from './fifo-stock.js';

/** The two FIFOs of one launch. */
export interface FifoPaths {
  readonly stdout: string;
  readonly stderr: string;
}

type StreamName = 'stdout' | 'stderr';
const STREAMS = ['stdout', 'stderr'] as const;

/**
 * Where a launch's FIFOs live once its pid is known. `dir` is the launch book's absolute,
 * normalized folder (`PluginStorage.path`), so the names are appended, not `path.join`'ed:
 * `join` normalizes one character at a time (docs/adoption.md, "Less CPU per adopting boot,
 * 27 Nov evening").
 */
export function fifoPathsOf(dir: string, pid: number): FifoPaths {
  return { stdout: `${dir}/${pid}.out`, stderr: `${dir}/${pid}.err` };
}

/** Remove a launch's FIFOs (they hold nothing once every writer and reader is gone). */
export function removeFifos(paths: FifoPaths): void {
  for (const stream of STREAMS) rmSync(paths[stream], { force: true });
}

/**
 * Where every follower's reads land: libuv reads one pipe at a time and `onread` hands the
 * bytes over at once (copied), so one buffer serves them all. 64 KiB: a pipe's whole buffer.
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/**
 * Reads a FIFO pair and hands every chunk on. Opened non-blocking and read through libuv (a
 * FIFO is a pipe to it), so a quiet child costs nothing but an idle descriptor. The bytes come
 * through `onread` rather than 'data' events: no flowing-mode set-up per socket and no stream
 * buffering per read (docs/adoption.md, "Less CPU per adopting boot, 27 Nov evening"); 'end'
 * and 'close' still come as for any socket.
 */
export class OutputFollower {
  private readonly sockets: Socket[] = [];
  private readonly endings: Promise<void>[] = [];

  constructor(
    paths: FifoPaths,
    onChunk: (chunk: Buffer, stream: StreamName) => void,
    fds?: Readonly<Record<StreamName, number>>,
  ) {
    for (const stream of STREAMS) {
      let fd: number;
      try {
        fd = fds?.[stream] ?? openSync(paths[stream], constants.O_RDONLY | constants.O_NONBLOCK);
      } catch {
        continue; // removed, or never made: nothing to follow
      }
      const onread: OnReadOpts = {
        buffer: READ_BUFFER,
        callback: (size) => {
          onChunk(Buffer.from(READ_BUFFER.subarray(0, size)), stream);
          return true;
        },
      };
      const options: SocketConstructorOpts & { onread: OnReadOpts } = {
        fd,
        readable: true,
        writable: false,
        onread,
      };
      const socket = new Socket(options);
      socket.on('error', () => undefined);
      this.endings.push(new Promise((resolve) => socket.once('close', () => resolve())));
      this.sockets.push(socket);
    }
  }

  /** Settles when every writer closed its end and everything written was read. */
  ended(): Promise<void> {
    return Promise.all(this.endings).then(() => undefined);
  }

  /** Stop reading and leave what is unread in the FIFOs for the next host (a handover). */
  detach(): void {
    for (const socket of this.sockets) socket.destroy();
  }
}

/** A child's output plumbing: FIFOs when possible, else ordinary pipes. */
export interface ChildOutput {
  readonly stdio: ['ignore', 'pipe' | number, 'pipe' | number];
  /** Start reading (pipes: from the child's streams). */
  follow(child: ChildProcess, onChunk: (chunk: Buffer, stream: StreamName) => void): void;
  /** After the spawn (pid undefined when it failed): drop the child's ends; the FIFOs' paths. */
  spawned(pid: number | undefined): FifoPaths | null;
  ended(): Promise<void>;
  detach(): void;
}

function pipeOutput(): ChildOutput {
  let closed: Promise<void> = Promise.resolve();
  return {
    stdio: ['ignore', 'pipe', 'pipe'],
    follow(child, onChunk) {
      closed = new Promise((resolve) => child.once('close', () => resolve()));
      for (const stream of STREAMS) {
        child[stream]?.on('data', (chunk: Buffer) => onChunk(chunk, stream));
        child[stream]?.on('error', () => undefined);
      }
    },
    spawned: () => null,
    ended: () => closed,
    detach: () => undefined,
  };
}

/** Plumbing for one launch; `dir` null (or no mkfifo) means ordinary pipes. */
export async function childOutput(dir: string | null): Promise<ChildOutput> {
  if (dir === null) return pipeOutput();
  const staging = await fifoStock(dir).take();
  if (staging === null) return pipeOutput();
  const childEnds: number[] = [];
  const readEnds: Record<StreamName, number> = { stdout: -1, stderr: -1 };
  try {
    for (const stream of STREAMS) {
      // The host's end first: opening it non-blocking needs no writer yet.
      readEnds[stream] = openSync(staging[stream], constants.O_RDONLY | constants.O_NONBLOCK);
      childEnds.push(openSync(staging[stream], constants.O_RDWR));
    }
  } catch {
    for (const fd of [...childEnds, readEnds.stdout, readEnds.stderr]) if (fd >= 0) closeSync(fd);
    removeFifos(staging);
    return pipeOutput();
  }
  let follower: OutputFollower | undefined;
  return {
    stdio: ['ignore', childEnds[0] as number, childEnds[1] as number],
    follow(_child, onChunk) {
      follower = new OutputFollower(staging, onChunk, readEnds);
    },
    spawned(pid) {
      // The host must not hold a writer, or the end of the child's output would never show.
      for (const fd of childEnds) closeSync(fd);
      if (pid === undefined) {
        follower?.detach();
        removeFifos(staging);
        return null;
      }
      const final = fifoPathsOf(dir, pid);
      for (const stream of STREAMS) renameSync(staging[stream], final[stream]);
      return final;
    },
    ended: () => follower?.ended() ?? Promise.resolve(),
    detach: () => follower?.detach(),
  };
}
