/**
 * The host's own log, also kept in `<data-dir>/logs/stackd.log` (0600, rotated at 10 MiB with
 * one previous file), in DUMB's line format so its dashboard can show it: it asks for the
 * backend's log as `GET /logs?process_name=DMB`.
 */
import { createWriteStream, mkdirSync, renameSync, statSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { formatDumbLine, type LogSink } from './logger.js';

const MAX_BYTES = 10 * 1024 * 1024;

/** Appends the sink's written records to the file. */
export class HostLogFile {
  private stream: WriteStream | undefined;
  private size = 0;
  private readonly unsubscribe: () => void;

  constructor(
    readonly path: string,
    sink: LogSink,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.open();
    this.unsubscribe = sink.subscribe((record) => {
      if (sink.writes(record.level)) this.write(formatDumbLine(record));
    });
  }

  private open(): void {
    try {
      this.size = statSync(this.path).size;
    } catch {
      this.size = 0;
    }
    this.stream = createWriteStream(this.path, { flags: 'a', mode: 0o600 });
    // A full disk or a removed folder must not take the host down with its log.
    this.stream.on('error', () => (this.stream = undefined));
  }

  private write(line: string): void {
    if (this.stream === undefined) return;
    this.stream.write(line);
    this.size += Buffer.byteLength(line);
    if (this.size < MAX_BYTES) return;
    this.stream.end();
    try {
      renameSync(this.path, `${this.path}.1`);
    } catch {
      /* rotated by someone else */
    }
    this.open();
  }

  close(): void {
    this.unsubscribe();
    this.stream?.end();
    this.stream = undefined;
  }
}
