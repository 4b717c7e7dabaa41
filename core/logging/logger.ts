/**
 * The host logger: one line per record on stderr (stdout carries only the listening line), with
 * a level threshold and subscribers (tests, streams) that see every record.
 *
 * A written line goes through the same secret rules as a supervised process's log before it
 * leaves the process: stderr ends up on disk too (journald, a redirect), and so does
 * `logs/stackd.log`. A message that quotes a URL with credentials, an `apikey=` query or a
 * bearer token (an outbound error, a plugin's own text) is thus never stored in clear.
 */
import { isoTime } from '../../sdk/iso-time.js';
import type { LogFields, LogLevel, Logger } from '../../sdk/logger.js';
import { redactText } from '../../sdk/redaction.js';
import { writeOutput } from './process-output.js';

const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** One log record as subscribers see it. */
export interface LogRecord {
  readonly time: string;
  readonly level: LogLevel;
  readonly scope: string;
  readonly message: string;
  readonly fields: LogFields | undefined;
}

/** Parse `INFO`, `warning`, `debug` … into a level; unknown values fall back to `info`. */
export function parseLogLevel(value: string | undefined): LogLevel {
  const normalized = (value ?? '').trim().toLowerCase();
  if (normalized === 'warning') return 'warn';
  if (normalized === 'critical') return 'error';
  return normalized in LEVEL_RANK ? (normalized as LogLevel) : 'info';
}

/** A warning or error repeated within this window is counted, not written again. */
const REPEAT_WINDOW_MS = 60_000;
/** Distinct repeated messages remembered at most (the oldest are forgotten). */
const REPEAT_KEYS = 1_000;

/** Where records go; shared by every scoped logger of a host. */
export class LogSink {
  private readonly listeners = new Set<(record: LogRecord) => void>();
  /** Per warning/error text: when its window began and how many repeats it swallowed. */
  private readonly repeats = new Map<string, { since: number; suppressed: number }>();

  constructor(
    private threshold: LogLevel,
    private readonly write: (line: string) => void = (line) => writeOutput('stderr', line),
    /** The repeat window; shorter only in tests. */
    private readonly repeatWindowMs = REPEAT_WINDOW_MS,
  ) {}

  private configuredLevel: LogLevel | undefined;
  private overridden = false;

  /** The configured threshold (`api_service.log_level`); a runtime override stays on top. */
  setLevel(level: LogLevel): void {
    this.configuredLevel = level;
    if (!this.overridden) this.threshold = level;
  }

  /** A temporary threshold until cleared with null or the host restarts (never persisted). */
  overrideLevel(level: LogLevel | null): void {
    this.overridden = level !== null;
    this.threshold = level ?? this.configuredLevel ?? this.threshold;
  }

  /** The configured threshold, the one in effect, and whether an override is on. */
  levels(): { configured: LogLevel; effective: LogLevel; overridden: boolean } {
    return {
      configured: this.configuredLevel ?? this.threshold,
      effective: this.threshold,
      overridden: this.overridden,
    };
  }

  /** Whether records of `level` are written (the threshold). */
  writes(level: LogLevel): boolean {
    return LEVEL_RANK[level] >= LEVEL_RANK[this.threshold];
  }

  subscribe(listener: (record: LogRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(level: LogLevel, scope: string, message: string, fields: LogFields | undefined): void {
    const text = this.throttled(level, scope, message, fields);
    if (text === null) return;
    this.record(level, scope, text, fields);
  }

  private record(
    level: LogLevel,
    scope: string,
    text: string,
    fields: LogFields | undefined,
  ): void {
    const record: LogRecord = {
      time: isoTime(),
      level,
      scope,
      message: text,
      fields,
    };
    for (const listener of this.listeners) listener(record);
    if (LEVEL_RANK[level] < LEVEL_RANK[this.threshold]) return;
    this.write(formatRecord(record));
  }

  /**
   * One line per cause per minute: a warning or error whose scope and text repeat within the
   * window is swallowed and counted (a full disk must not write hundreds of identical lines a
   * second); when the window closes, a line says how many were swallowed, without waiting for
   * the next one. Null: swallow it.
   */
  private throttled(
    level: LogLevel,
    scope: string,
    message: string,
    fields: LogFields | undefined,
  ): string | null {
    if (level !== 'warn' && level !== 'error') return message;
    const key = `${level}\u0000${scope}\u0000${message}`;
    const now = Date.now();
    const seen = this.repeats.get(key);
    if (seen !== undefined && now - seen.since < this.repeatWindowMs) {
      seen.suppressed += 1;
      if (seen.suppressed === 1) {
        const timer = setTimeout(
          () => {
            if (this.repeats.get(key) !== seen) return;
            this.repeats.delete(key);
            this.record(level, scope, repeatedText(message, seen.suppressed), fields);
          },
          seen.since + this.repeatWindowMs - now,
        );
        timer.unref();
      }
      return null;
    }
    this.repeats.delete(key);
    this.repeats.set(key, { since: now, suppressed: 0 });
    if (this.repeats.size > REPEAT_KEYS) {
      const oldest = this.repeats.keys().next();
      if (oldest.done !== true) this.repeats.delete(oldest.value);
    }
    const swallowed = seen?.suppressed ?? 0;
    return swallowed === 0 ? message : repeatedText(message, swallowed);
  }
}

function repeatedText(message: string, swallowed: number): string {
  return `${message} (repeated ${swallowed} more times in the last minute)`;
}

/** The record as a stderr line, secrets redacted. */
function formatRecord(record: LogRecord): string {
  const extra = record.fields === undefined ? '' : ` ${safeJson(record.fields)}`;
  return redactText(
    `${record.time} ${record.level.toUpperCase().padEnd(5)} [${record.scope}] ${record.message}${extra}\n`,
  );
}

/** The same record as a line in DUMB's log format (`<time> - <LEVEL> - <message>`), redacted. */
export function formatDumbLine(record: LogRecord): string {
  const extra = record.fields === undefined ? '' : ` ${safeJson(record.fields)}`;
  return redactText(
    `${record.time} - ${record.level.toUpperCase()} - [${record.scope}] ${record.message}${extra}\n`,
  );
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, inner: unknown) =>
      inner instanceof Error ? { name: inner.name, message: inner.message } : inner,
    );
  } catch {
    return '[unserializable]';
  }
}

/** A logger bound to one scope (`core`, `supervisor`, `supervisor:runner`). */
export class ScopedLogger implements Logger {
  constructor(
    private readonly sink: LogSink,
    readonly scope: string,
  ) {}

  debug(message: string, fields?: LogFields): void {
    this.sink.emit('debug', this.scope, message, fields);
  }
  info(message: string, fields?: LogFields): void {
    this.sink.emit('info', this.scope, message, fields);
  }
  warn(message: string, fields?: LogFields): void {
    this.sink.emit('warn', this.scope, message, fields);
  }
  error(message: string, fields?: LogFields): void {
    this.sink.emit('error', this.scope, message, fields);
  }
  child(scope: string): Logger {
    return new ScopedLogger(this.sink, `${this.scope}:${scope}`);
  }
}

/** Text of an unknown thrown value, for logs and boot errors. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
