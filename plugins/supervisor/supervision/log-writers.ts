/** One log writer per process and file, created at its first start, closed at shutdown. */
import type { Logger, SecretScrubber } from '../../../sdk/index.js';
import type { RedactedRange } from '../logs/log-cursor.js';
import type { LogLineBus } from '../logs/log-line-bus.js';
import { ProcessLogWriter } from '../logs/log-writer.js';
import type { ProcessSpec } from '../process-spec/process-spec.js';
import type { OutputSink } from '../runtime/launch.js';

/** Rotation settings of every writer. */
export interface LogWriterSettings {
  readonly maxBytes: number;
  readonly keep: number;
}

/** The open log writers. */
export class LogWriters {
  private readonly writers = new Map<string, ProcessLogWriter>();

  constructor(
    private readonly settings: LogWriterSettings,
    private readonly bus: LogLineBus,
    private readonly logger: Logger,
    private readonly scrubber: () => SecretScrubber,
  ) {}

  /** The writer for a spec's output, or null when its logging is suppressed. */
  open(spec: ProcessSpec): OutputSink | null {
    const file = spec.logFile;
    if (file === null) return null;
    // Not `spec` in the closure below: the writer lives as long as the host, and would keep the
    // first launch's whole spec (its environment copy included) beside every later one.
    const { processName } = spec;
    const key = `${processName}\u0000${file}`;
    let writer = this.writers.get(key);
    if (writer === undefined) {
      writer = new ProcessLogWriter({
        file,
        maxBytes: this.settings.maxBytes,
        keep: this.settings.keep,
        processName,
        bus: this.bus,
        scrubber: this.scrubber,
        onError: (error) =>
          this.logger.warn(`log file ${file} of ${processName}: ${String(error)}`),
      });
      this.writers.set(key, writer);
    }
    return writer;
  }

  /** What the writer of `processName` to `file` wrote itself, if it has one (see the writer). */
  redactedRange(processName: string, file: string): RedactedRange | undefined {
    return this.writers.get(`${processName}\u0000${file}`)?.redactedRange();
  }

  /** Bytes written per process, over all of its log files. */
  bytesWritten(): Map<string, number> {
    const totals = new Map<string, number>();
    for (const [key, writer] of this.writers) {
      const name = key.slice(0, key.indexOf('\u0000'));
      totals.set(name, (totals.get(name) ?? 0) + writer.bytesWritten);
    }
    return totals;
  }

  /** Flush and close every writer. */
  async closeAll(): Promise<void> {
    const writers = [...this.writers.values()];
    this.writers.clear();
    await Promise.all(writers.map((writer) => writer.close()));
  }
}
