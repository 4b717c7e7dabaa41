/**
 * Following logs without losing or repeating a line. The lines come from GET /logs and its
 * cursor (a byte offset after the last complete line, plus the file's identity), and then from
 * the WebSocket `/ws/logs`, whose frames say where their lines sit in the file (the cursor before
 * and after them). A frame that continues exactly at our cursor is printed as it is; one we have
 * already read is skipped; anything else (a dropped frame, a rotated file, a frame without
 * cursor fields from an older host) makes us read GET /logs from our cursor, which is exact. So
 * a steady follow costs no request at all, and a reconnect or a host restart costs one read.
 */
import type { LogChunkBody, LogStreamMessage } from '../plugins/supervisor/logs/log-schemas.js';
import type { ApiClient } from './api.cjs';
import { CliError, EXIT } from './errors.cjs';

/** The largest read the host allows: a reader this far behind starts over (reset). */
const MAX_TAIL_BYTES = 8_388_608;

/** Frames kept while a read is in flight; past this, the next read covers them instead. */
const MAX_QUEUED_FRAMES = 10_000;

/** A /ws/logs frame (format=json). */
export type LogFrame = Omit<LogStreamMessage, 'type'>;

interface FollowedLog {
  readonly name: string;
  cursor: number | undefined;
  fileId: string | null;
  busy: boolean;
  dirty: boolean;
  /** Frames that arrived while a read was in flight, oldest first. */
  queued: LogFrame[];
}

/** What the follower prints: the lines of one process, and notices. */
export interface LogSink {
  lines(processName: string, lines: readonly string[]): void;
  notice(text: string): void;
}

/** Split a chunk of complete lines. */
export function chunkLines(chunk: string): string[] {
  if (chunk === '') return [];
  const lines = chunk.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export class LogFollower {
  private readonly logs: Map<string, FollowedLog>;

  constructor(
    private readonly api: ApiClient,
    names: readonly string[],
    private readonly sink: LogSink,
  ) {
    this.logs = new Map(
      names.map((name) => [
        name,
        { name, cursor: undefined, fileId: null, busy: false, dirty: false, queued: [] },
      ]),
    );
  }

  /** The last part of each log (tailBytes from the end), as complete lines; sets the cursors. */
  async tail(tailBytes: number): Promise<Map<string, string[]>> {
    const result = new Map<string, string[]>();
    for (const log of this.logs.values()) {
      const chunk = await this.read(log, Math.min(MAX_TAIL_BYTES, Math.max(1024, tailBytes)));
      result.set(log.name, chunkLines(chunk.chunk));
    }
    return result;
  }

  /** Whether this follower reads the named process. */
  follows(name: string): boolean {
    return this.logs.has(name);
  }

  /** A frame arrived: print it when it continues at the cursor, else read from the cursor. */
  receive(frame: LogFrame): void {
    const log = this.logs.get(frame.process_name);
    if (log === undefined) return;
    if (log.busy) {
      if (log.queued.length < MAX_QUEUED_FRAMES) log.queued.push(frame);
      else log.dirty = true;
      return;
    }
    if (!this.apply(log, frame)) void this.pump(log);
  }

  /** Read every followed log (after a reconnect). */
  wakeAll(): void {
    for (const log of this.logs.values()) void this.pump(log);
  }

  /** Print a frame that continues at the cursor, skip one already read; false: read instead. */
  private apply(log: FollowedLog, frame: LogFrame): boolean {
    const { file_id: fileId, previous_cursor: previous, cursor } = frame;
    if (fileId === undefined || previous === undefined || cursor === undefined) return false;
    if (log.cursor === undefined || fileId !== log.fileId) return false;
    if (cursor <= log.cursor) return true;
    if (previous !== log.cursor) return false;
    this.sink.lines(log.name, frame.lines);
    log.cursor = cursor;
    return true;
  }

  private async pump(log: FollowedLog): Promise<void> {
    if (log.busy) {
      log.dirty = true;
      return;
    }
    log.busy = true;
    try {
      do {
        log.dirty = false;
        // Every frame received so far was written before this read starts: the read covers it.
        log.queued = [];
        const before = log.cursor;
        const chunk = await this.read(log, MAX_TAIL_BYTES);
        // A reset after we had a cursor: the file was rotated (or truncated); say so.
        if (chunk.reset && before !== undefined && chunk.chunk !== '')
          this.sink.notice(`${log.name}: log file rotated, reading the new file from its start`);
        this.sink.lines(log.name, chunkLines(chunk.chunk));
        // Frames that arrived during the read: skip what it covered, print what follows it.
        for (const frame of log.queued)
          if (!this.apply(log, frame)) {
            log.dirty = true;
            break;
          }
      } while (log.dirty);
    } catch (error) {
      // Unreachable host: the reconnect reads again from the same cursor.
      if (!(error instanceof CliError) || error.code !== EXIT.unreachable) throw error;
    } finally {
      log.busy = false;
      log.queued = [];
    }
  }

  private async read(log: FollowedLog, tailBytes: number): Promise<LogChunkBody> {
    const chunk = (await this.api.call('GET', '/logs', {
      query: {
        process_name: log.name,
        tail_bytes: tailBytes,
        cursor: log.cursor,
        file_id: log.cursor === undefined ? undefined : (log.fileId ?? undefined),
      },
    })) as LogChunkBody;
    log.cursor = chunk.cursor;
    log.fileId = chunk.file_id;
    return chunk;
  }
}
