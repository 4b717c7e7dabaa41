/**
 * In-process pub/sub of redacted log lines: a process's log writer publishes each read batch, the
 * `/ws/logs` stream (and anyone else: AI diagnostics, notifications) subscribes.
 */

/**
 * Where a batch landed in its log file, in the terms of GET /logs: a reader whose cursor (for
 * this file_id) is `previous_cursor` has read everything before the batch, and after appending
 * its lines its cursor is `cursor`.
 */
export interface LogBatchPosition {
  readonly file_id: string;
  readonly previous_cursor: number;
  readonly cursor: number;
}

/** One read batch of one process: complete, redacted lines without their line breaks. */
export interface LogLineBatch {
  readonly process_name: string;
  readonly lines: readonly string[];
  /** Absent when the batch is not known to be in the file exactly there (a failed write). */
  readonly position?: LogBatchPosition;
}

/** A subscriber; it runs synchronously inside `publish`, so it must be quick. */
export type LogLineListener = (batch: LogLineBatch) => void;

/** Fan-out of log batches. One batch per read, never one message per line (6× cheaper). */
export class LogLineBus {
  private readonly listeners = new Set<LogLineListener>();

  /** `onListenerError` hears about a subscriber that threw (to log it). */
  constructor(private readonly options: { onListenerError?(error: unknown): void } = {}) {}

  /** Deliver a batch to every subscriber. A throwing subscriber does not stop the others. */
  publish(batch: LogLineBatch): void {
    if (batch.lines.length === 0) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(batch);
      } catch (error) {
        // A listener's failure is its own business; the writer must keep writing.
        this.options.onListenerError?.(error);
      }
    }
  }

  /** Listen to every batch; returns the function that stops listening. */
  subscribe(listener: LogLineListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Subscribers right now. */
  get listenerCount(): number {
    return this.listeners.size;
  }
}
