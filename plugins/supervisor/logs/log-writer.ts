/**
 * Writes one process's stdout and stderr to its log file: complete lines only, each redacted,
 * size-rotated (`file` → `file.1` → … → `file.N`), and every write's lines published as one batch.
 *
 * Why synchronous appends: a child's pipe hands us at most one read buffer (≤ 64 KiB) at a time,
 * and one `writeSync` of it to an already open descriptor only copies into the page cache.
 * Measured: a 50-line (4 KiB) batch costs ~40–60 µs in all, most of it redaction, on a 2-core
 * machine under load. In exchange, ordering is trivial, GET /logs sees a line the moment it was
 * published on the bus, and there is no unbounded queue to lose at shutdown. Rotation (a few
 * renames) is rare.
 *
 * stderr lines are written without a prefix: the file stays exactly what the program printed
 * (minus secrets), so the program's own log format, level parsing and existing tooling keep
 * working. The stream a line came from is not recorded.
 */
import {
  closeSync,
  fchmodSync,
  fstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { fileIdentity, type RedactedRange } from './log-cursor.js';
import type { LogBatchPosition, LogLineBus } from './log-line-bus.js';
import { redactLine, type SecretScrubber } from '../../../sdk/index.js';

/** Which pipe a chunk came from. */
export type OutputStream = 'stdout' | 'stderr';

/** Options of {@link ProcessLogWriter}. */
export interface ProcessLogWriterOptions {
  /** Absolute path of the log file (its directory is created). */
  readonly file: string;
  /** Rotate before a write would take the file past this many bytes. */
  readonly maxBytes: number;
  /** Rotated files kept (`file.1` … `file.<keep>`); 0 keeps none. */
  readonly keep: number;
  readonly processName: string;
  readonly bus: LogLineBus;
  /** A partial line longer than this is written as a line anyway (bounds memory). Default 64 KiB. */
  readonly maxLineBytes?: number;
  /** Hears about file errors (the writer keeps going and retries on the next write). */
  readonly onError?: (error: unknown) => void;
  /** Known secret values of the current configuration (built once per configuration version). */
  readonly scrubber?: () => SecretScrubber;
}

const NEWLINE = 0x0a;
const DEFAULT_MAX_LINE_BYTES = 64 * 1024;

function decodeLine(data: Buffer, start: number, end: number): string {
  // A CRLF line ends up without its CR: the file is written with plain LF.
  const stop = end > start && data[end - 1] === 0x0d ? end - 1 : end;
  return data.toString('utf8', start, stop);
}

/** The log writer of one process. */
export class ProcessLogWriter {
  /** Bytes written to the file since the writer was made, across rotations (never goes down). */
  bytesWritten = 0;
  private readonly pending: Record<OutputStream, Buffer | undefined> = {
    stdout: undefined,
    stderr: undefined,
  };
  private descriptor: number | null = null;
  /** Identity of the open file, as GET /logs reports it (`file_id`). */
  private fileId = '';
  private size = 0;
  /** Where the bytes this writer wrote, and no one else, start in the open file. */
  private ownedFrom = 0;
  /** The file's modification time after the last append. */
  private mtimeMs = 0;
  private closed = false;
  private readonly maxLineBytes: number;

  constructor(private readonly options: ProcessLogWriterOptions) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /** The log file's path. */
  get file(): string {
    return this.options.file;
  }

  /**
   * The part of the log file this writer wrote (redacted) and nobody else: from the file's size
   * when the writer opened it, or from after the last append of another writer, to the end.
   * Undefined before the file is open, and after a failed write.
   */
  redactedRange(): RedactedRange | undefined {
    if (this.descriptor === null) return undefined;
    return { fileId: this.fileId, from: this.ownedFrom, size: this.size, mtimeMs: this.mtimeMs };
  }

  /** Take a chunk of output; its complete lines are written and published as one batch. */
  write(chunk: Buffer, stream: OutputStream): void {
    if (this.closed || chunk.length === 0) return;
    this.emit(this.takeLines(stream, chunk));
  }

  /** Write the held partial lines of both streams as lines (the process exited, or a timer). */
  flush(): void {
    if (this.closed) return;
    const lines: string[] = [];
    for (const stream of ['stdout', 'stderr'] as const) {
      const held = this.pending[stream];
      this.pending[stream] = undefined;
      if (held !== undefined) lines.push(decodeLine(held, 0, held.length));
    }
    this.emit(lines);
  }

  /** Flush and close the file. Later writes are ignored. */
  close(): Promise<void> {
    if (!this.closed) {
      this.flush();
      this.closed = true;
      this.closeDescriptor();
    }
    return Promise.resolve();
  }

  private takeLines(stream: OutputStream, chunk: Buffer): string[] {
    const held = this.pending[stream];
    const data = held === undefined ? chunk : Buffer.concat([held, chunk]);
    const lines: string[] = [];
    let start = 0;
    for (let end = data.indexOf(NEWLINE); end !== -1; end = data.indexOf(NEWLINE, start)) {
      lines.push(decodeLine(data, start, end));
      start = end + 1;
    }
    let rest = start < data.length ? data.subarray(start) : undefined;
    if (rest !== undefined && rest.length >= this.maxLineBytes) {
      lines.push(decodeLine(rest, 0, rest.length));
      rest = undefined;
    }
    // Copy the remainder so a small partial line does not pin the whole read buffer.
    this.pending[stream] = rest === undefined ? undefined : Buffer.from(rest);
    return lines;
  }

  private emit(rawLines: readonly string[]): void {
    if (rawLines.length === 0) return;
    const lines = (this.options.scrubber?.().scrubLines(rawLines) ?? rawLines).map(redactLine);
    const position = this.append(`${lines.join('\n')}\n`);
    const { processName } = this.options;
    this.options.bus.publish(
      position === undefined
        ? { process_name: processName, lines }
        : { process_name: processName, lines, position },
    );
  }

  /** Append to the file; where the bytes landed, when that is certain. */
  private append(text: string): LogBatchPosition | undefined {
    const bytes = Buffer.from(text, 'utf8');
    try {
      if (this.descriptor === null) this.open();
      if (this.size > 0 && this.size + bytes.length > this.options.maxBytes) this.rotate();
      const descriptor = this.descriptor ?? this.open();
      const start = this.size;
      let written = 0;
      while (written < bytes.length)
        written += writeSync(descriptor, bytes, written, bytes.length - written);
      this.bytesWritten += bytes.length;
      // Appends land at the file's end, which is where we think it is unless someone else (a
      // second process given the same log_file) appended too: then the position is unknown and
      // live readers fall back to reading the file.
      const stats = fstatSync(descriptor);
      this.size = stats.size;
      this.mtimeMs = stats.mtimeMs;
      if (this.size !== start + bytes.length) {
        this.ownedFrom = this.size;
        return undefined;
      }
      return { file_id: this.fileId, previous_cursor: start, cursor: this.size };
    } catch (error) {
      // Disk full, directory removed…: drop this batch from the file, reopen on the next write.
      this.closeDescriptor();
      this.options.onError?.(error);
      return undefined;
    }
  }

  private open(): number {
    mkdirSync(dirname(this.options.file), { recursive: true, mode: 0o700 });
    // Logs may carry what redaction missed: readable by the owner only (docs/decisions.md §26).
    const descriptor = openSync(this.options.file, 'a', 0o600);
    fchmodSync(descriptor, 0o600); // a file from an earlier version may be wider
    this.descriptor = descriptor;
    const stats = fstatSync(descriptor);
    this.size = stats.size;
    this.ownedFrom = stats.size;
    this.mtimeMs = stats.mtimeMs;
    this.fileId = fileIdentity(stats);
    return descriptor;
  }

  private rotate(): void {
    this.closeDescriptor();
    const { file, keep } = this.options;
    if (keep <= 0) {
      rmSync(file, { force: true });
    } else {
      rmSync(`${file}.${keep}`, { force: true });
      for (let index = keep - 1; index >= 1; index -= 1)
        renameIfExists(`${file}.${index}`, `${file}.${index + 1}`);
      renameIfExists(file, `${file}.1`);
    }
    this.open();
  }

  private closeDescriptor(): void {
    if (this.descriptor === null) return;
    try {
      closeSync(this.descriptor);
    } catch {
      // Already closed or invalid: nothing left to release.
    }
    this.descriptor = null;
  }
}

function renameIfExists(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
