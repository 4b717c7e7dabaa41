/**
 * Following logs without losing or repeating a line. The WebSocket `/ws/logs` only says "this
 * process wrote lines" (the host writes each batch to the file before it publishes it); the
 * lines themselves are read with GET /logs and its cursor (a byte offset after the last complete
 * line, plus the file's identity). So a dropped frame, a reconnect or a host restart costs
 * nothing: the next read starts exactly where the last one ended.
 */
import type { LogChunkBody } from '../plugins/supervisor/logs/log-schemas.js';
import type { ApiClient } from './api.cjs';
import { CliError, EXIT } from './errors.cjs';

/** The largest read the host allows: a reader this far behind starts over (reset). */
const MAX_TAIL_BYTES = 8_388_608;

interface FollowedLog {
  readonly name: string;
  cursor: number | undefined;
  fileId: string | null;
  busy: boolean;
  dirty: boolean;
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
        { name, cursor: undefined, fileId: null, busy: false, dirty: false },
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

  /** New lines may be there: read them (one read at a time per process, coalescing wake-ups). */
  wake(name: string): void {
    const log = this.logs.get(name);
    if (log !== undefined) void this.pump(log);
  }

  /** Read every followed log (after a reconnect). */
  wakeAll(): void {
    for (const log of this.logs.values()) void this.pump(log);
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
        const before = log.cursor;
        const chunk = await this.read(log, MAX_TAIL_BYTES);
        // A reset after we had a cursor: the file was rotated (or truncated); say so.
        if (chunk.reset && before !== undefined && chunk.chunk !== '')
          this.sink.notice(`${log.name}: log file rotated, reading the new file from its start`);
        this.sink.lines(log.name, chunkLines(chunk.chunk));
      } while (log.dirty);
    } catch (error) {
      // Unreachable host: the reconnect reads again from the same cursor.
      if (!(error instanceof CliError) || error.code !== EXIT.unreachable) throw error;
    } finally {
      log.busy = false;
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
