/**
 * Reading the small files the kernel generates on demand (cgroup.procs, freezer.state). They
 * report no size, and `fs.readFile` then reads into a fresh 64 KiB buffer per file: a restart
 * wave of 1,000 launches read ~10 such files per stop and held ~300 MiB of those buffers until a
 * full garbage collection. Read synchronously through one reused buffer instead: the kernel
 * makes the text in memory, so there is no disk to wait for.
 */
import { closeSync, openSync, readSync } from 'node:fs';

let buffer = Buffer.alloc(4096);

/**
 * Read all of `fd` from offset 0 into the shared buffer (grown as needed); its length. A
 * generated file fills as much of a read as it has, so a read that leaves room is the end. From
 * offset 0, so a file kept open lists its contents afresh.
 */
export function readGeneratedBytes(fd: number): number {
  let length = 0;
  for (;;) {
    const room = buffer.length - length;
    const read = readSync(fd, buffer, length, room, length);
    length += read;
    if (read < room) return length;
    buffer = Buffer.concat([buffer, Buffer.alloc(buffer.length)]);
  }
}

/** A generated file's length in the shared buffer; null when it cannot be read. */
export function readGeneratedFileBytes(file: string): number | null {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    return readGeneratedBytes(fd);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The pids listed one a line in the first `length` bytes of the shared buffer (a `cgroup.procs`
 * file just read), without pid 0 or 1 and without this host: parsed in place, no string made.
 */
export function pidsInBuffer(length: number): number[] {
  const pids: number[] = [];
  let pid = 0;
  for (let index = 0; index < length; index += 1) {
    const byte = buffer[index] ?? 0;
    if (byte >= 0x30 && byte <= 0x39) pid = pid * 10 + byte - 0x30;
    else {
      if (pid > 1 && pid !== process.pid) pids.push(pid);
      pid = 0;
    }
  }
  if (pid > 1 && pid !== process.pid) pids.push(pid);
  return pids;
}

/** The pids of a `cgroup.procs` file (see {@link pidsInBuffer}); null when it cannot be read. */
export function readPidList(file: string): number[] | null {
  const length = readGeneratedFileBytes(file);
  return length === null ? null : pidsInBuffer(length);
}

/** The file's text (latin1: these files are ASCII), or null when it cannot be read. */
export function readGeneratedFile(file: string): string | null {
  const length = readGeneratedFileBytes(file);
  return length === null ? null : buffer.toString('latin1', 0, length);
}
