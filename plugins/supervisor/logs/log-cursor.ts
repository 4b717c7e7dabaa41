/**
 * The GET /logs cursor protocol (docs/decisions.md §15, docs/original-product.md §4): read only the bytes a client
 * still needs from a log file, as complete lines, redacted after decoding.
 *
 * One `fstat` snapshot per read: bytes appended after it wait for the next request. Only the
 * needed range is read (`read` at an offset), never the whole file, so a tail of a huge file
 * costs the same as a tail of a small one.
 */
import { closeSync, fstatSync, open, read, type Stats } from 'node:fs';
import { promisify } from 'node:util';
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

/**
 * Bytes of a log file this host's writer wrote, redacted, itself: from `from` to the end of the
 * file whose identity, size and modification time were these after the writer's last append.
 * While the file still reads so, nobody else has written to it since.
 */
export interface RedactedRange {
  readonly fileId: string;
  readonly from: number;
  readonly size: number;
  readonly mtimeMs: number;
}

/** What a read returns. */
export interface LogChunk {
  /** Byte offset just after the last complete line returned: the next request's cursor. */
  readonly cursor: number;
  /**
   * Complete, redacted lines, in line-aligned pieces of at most {@link PIECE_BYTES} bytes (a
   * longer line is a piece of its own), so the text is never held as one large string;
   * {@link chunkText} joins them.
   */
  readonly pieces: readonly string[];
  /** True when the client must replace its buffer with the text instead of appending it. */
  readonly reset: boolean;
  /** File size at the snapshot. */
  readonly size: number;
  /** Identity of the file read (device, inode, birth time), or null when there is no file. */
  readonly file_id: string | null;
}

const LF = 0x0a;
const CR = 0x0d;

/** Where reading starts, and whether the client starts over. Pure: the original's decision table. */
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

const EMPTY: LogChunk = { cursor: 0, pieces: [], reset: true, size: 0, file_id: null };

/** The whole text of a chunk (the wire's `chunk`). */
export function chunkText(read: LogChunk): string {
  return read.pieces.join('');
}

/**
 * Largest piece the text is decoded in. V8 puts a string over 128 KiB in its large-object space,
 * freshly mapped memory per string whose page faults cost more than the decoding itself (128 KiB
 * of ASCII: 0.66 ms decoded at once, 0.03 ms in 32 KiB pieces, on the 2-core bench machine).
 */
export const PIECE_BYTES = 32 * 1024;

/**
 * Read the next chunk of a log file. A missing file is an empty chunk with `reset: true`.
 * Lines inside `redacted` (asked for after the file's fstat, so it describes the same moment) are
 * not scanned again: the writer redacted them with the same rules before they reached the disk.
 */
export async function readLogChunk(
  file: string | null,
  request: LogChunkRequest,
  redacted?: () => RedactedRange | undefined,
): Promise<LogChunk> {
  if (file === null) return EMPTY;
  let fd: number;
  try {
    fd = await openAsync(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return EMPTY;
    throw error;
  }
  try {
    // fstat and close of an open descriptor touch no disk: done inline, they spare two trips to
    // the thread pool per request (of four).
    const stats = fstatSync(fd);
    if (!stats.isFile()) return EMPTY;
    const size = stats.size;
    const fileId = fileIdentity(stats);
    const plan = planLogRead(size, request, fileId);
    const scanBefore = redactedFrom(redacted?.(), fileId, stats);
    // One byte before the start tells whether the start is at a line boundary.
    const readFrom = plan.start > 0 ? plan.start - 1 : 0;
    const bytes = await readRange(fd, readFrom, size - readFrom);
    let offset = plan.start - readFrom;
    if (plan.start > 0 && bytes[0] !== LF && bytes[0] !== CR) {
      // Started inside a line: skip to just after the next newline (or to the end).
      const newline = bytes.indexOf(LF, offset);
      offset = newline === -1 ? bytes.length : newline + 1;
    }
    const lastNewline = bytes.lastIndexOf(LF);
    const end = lastNewline >= offset ? lastNewline + 1 : offset;
    const pieces = decodeLines(bytes, offset, end, scanBefore - readFrom);
    return { cursor: readFrom + end, pieces, reset: plan.reset, size, file_id: fileId };
  } finally {
    closeSync(fd);
  }
}

/**
 * Where the text known redacted starts in this file (the whole file is scanned when its size,
 * modification time or identity differ from the writer's last append: someone else wrote).
 */
function redactedFrom(range: RedactedRange | undefined, fileId: string, stats: Stats): number {
  if (range === undefined) return Infinity;
  const unchanged =
    range.fileId === fileId && range.size === stats.size && range.mtimeMs === stats.mtimeMs;
  return unchanged ? range.from : Infinity;
}

/**
 * Decode and redact `bytes[start, end)` (complete lines) in line-aligned pieces. Cutting only
 * after a newline keeps every UTF-8 sequence whole and gives redaction whole lines. A piece that
 * starts at or after `redactedFrom` was redacted when it was written.
 */
function decodeLines(bytes: Buffer, start: number, end: number, redactedFrom: number): string[] {
  const pieces: string[] = [];
  let from = start;
  while (from < end) {
    let to = end;
    if (end - from > PIECE_BYTES) {
      const newline = bytes.lastIndexOf(LF, from + PIECE_BYTES - 1);
      to = newline >= from ? newline + 1 : bytes.indexOf(LF, from + PIECE_BYTES) + 1;
    }
    const text = bytes.toString('utf8', from, to);
    pieces.push(from >= redactedFrom ? text : redactText(text));
    from = to;
  }
  return pieces;
}

const openAsync = promisify(open);
const readAsync = promisify(read);

async function readRange(fd: number, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await readAsync(fd, buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
