/**
 * The GET /logs cursor protocol (DECISIONS #15, reference §2.17): read only the bytes a client
 * still needs from a log file, as complete lines, redacted after decoding.
 *
 * One `fstat` snapshot per read: bytes appended after it wait for the next request. Only the
 * needed range is read (`read` at an offset), never the whole file, so a tail of a huge file
 * costs the same as a tail of a small one.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { redactText } from '../../../sdk/index.js';

/** Options of {@link readLogChunk}. */
export interface LogChunkRequest {
  /** The cursor the client got last time; omitted on the first request. */
  readonly cursor?: number;
  /** Bytes read from the end when starting over. */
  readonly tailBytes: number;
  /** The file_id the client got last time: a different one means the file was rotated. */
  readonly fileId?: string;
}

/** What a read returns. */
export interface LogChunk {
  /** Byte offset just after the last complete line returned: the next request's cursor. */
  readonly cursor: number;
  /** Complete, redacted lines. */
  readonly chunk: string;
  /** True when the client must replace its buffer with `chunk` instead of appending it. */
  readonly reset: boolean;
  /** File size at the snapshot. */
  readonly size: number;
  /** Identity of the file read (device, inode, birth time), or null when there is no file. */
  readonly file_id: string | null;
}

const LF = 0x0a;
const CR = 0x0d;

/** Where reading starts, and whether the client starts over. Pure: the reference's decision table. */
export function planLogRead(
  size: number,
  request: LogChunkRequest,
  currentFileId: string,
): { start: number; reset: boolean } {
  const tailStart = Math.max(0, size - request.tailBytes);
  const { cursor } = request;
  if (cursor === undefined) return { start: tailStart, reset: true };
  if (request.fileId !== undefined && request.fileId !== currentFileId)
    return { start: tailStart, reset: true };
  if (cursor > size || size - cursor > request.tailBytes) return { start: tailStart, reset: true };
  return { start: cursor, reset: false };
}

/**
 * `<dev>:<ino>:<birth ms>` in hex. The birth time tells a new file apart from an old one that
 * got the inode of a deleted file (rotation with keep 0 on filesystems that reuse inodes).
 */
export function fileIdentity(stats: Stats): string {
  const birth = Math.trunc(stats.birthtimeMs);
  return `${stats.dev.toString(16)}:${stats.ino.toString(16)}:${birth.toString(16)}`;
}

const EMPTY: LogChunk = { cursor: 0, chunk: '', reset: true, size: 0, file_id: null };

/** Read the next chunk of a log file. A missing file is an empty chunk with `reset: true`. */
export async function readLogChunk(
  file: string | null,
  request: LogChunkRequest,
): Promise<LogChunk> {
  if (file === null) return EMPTY;
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return EMPTY;
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return EMPTY;
    const size = stats.size;
    const fileId = fileIdentity(stats);
    const plan = planLogRead(size, request, fileId);
    // One byte before the start tells whether the start is at a line boundary.
    const readFrom = plan.start > 0 ? plan.start - 1 : 0;
    const bytes = await readRange(handle, readFrom, size - readFrom);
    let offset = plan.start - readFrom;
    if (plan.start > 0 && bytes[0] !== LF && bytes[0] !== CR) {
      // Started inside a line: skip to just after the next newline (or to the end).
      const newline = bytes.indexOf(LF, offset);
      offset = newline === -1 ? bytes.length : newline + 1;
    }
    const lastNewline = bytes.lastIndexOf(LF);
    const end = lastNewline >= offset ? lastNewline + 1 : offset;
    const chunk = redactText(bytes.toString('utf8', offset, end));
    return { cursor: readFrom + end, chunk, reset: plan.reset, size, file_id: fileId };
  } finally {
    await handle.close();
  }
}

async function readRange(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
