/**
 * Reading the small files the kernel generates on demand (cgroup.procs, freezer.state). They
 * report no size, and `fs.readFile` then reads into a fresh 64 KiB buffer per file: a restart
 * wave of 1,000 launches read ~10 such files per stop and held ~300 MiB of those buffers until a
 * full garbage collection. Read synchronously through one reused buffer instead: the kernel
 * makes the text in memory, so there is no disk to wait for.
 */
import { closeSync, openSync, readSync } from 'node:fs';

let buffer = Buffer.alloc(4096);

/** The file's text (latin1: these files are ASCII), or null when it cannot be read. */
export function readGeneratedFile(file: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.alloc(buffer.length)]);
    }
    return buffer.toString('latin1', 0, length);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
