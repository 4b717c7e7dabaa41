/**
 * One line of a process's output in DUMB's log line format, as its dashboard parses it:
 * `<ISO time> - <LEVEL> - <process name> subprocess: <line>`. The level is the one the line
 * starts with when it names one (`WARNING …`, `[ERROR] …`, `warn: …`), else INFO, so the
 * dashboard's level filter and colours work on what the process said.
 */
const LEADING_LEVEL =
  /^\s*\[?(debug|info|warn|warning|error|err|critical|crit|fatal)\]?(?=[\s:|-]|$)/i;

const CANONICAL: Readonly<Record<string, string>> = {
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARNING',
  warning: 'WARNING',
  error: 'ERROR',
  err: 'ERROR',
  critical: 'CRITICAL',
  crit: 'CRITICAL',
  fatal: 'CRITICAL',
};

/** The level a line announces, or INFO. */
export function levelOf(line: string): string {
  const word = LEADING_LEVEL.exec(line)?.[1]?.toLowerCase();
  return (word === undefined ? undefined : CANONICAL[word]) ?? 'INFO';
}

export function dumbLogLine(time: string, processName: string, line: string): string {
  return `${time} - ${levelOf(line)} - ${processName} subprocess: ${line}`;
}
