/** Structured logging scoped to one plugin. */

/** Log levels, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Extra structured fields for a log line. */
export type LogFields = Readonly<Record<string, unknown>>;

/** A logger whose lines carry the plugin name. Never log secrets: fields are not redacted. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger for a sub-component: `supervisor:runner`. */
  child(scope: string): Logger;
}
