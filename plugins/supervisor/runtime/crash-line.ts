/**
 * The host log line of one crash, with its outcome. The pid makes each line distinct, so the
 * log's repeat filter never swallows a crash (the restart policy bounds how many there are), and
 * an operator reading the log sees every exit and what followed it.
 */
import type { Logger } from '../../../sdk/index.js';
import type { RestartDecision } from '../process-spec/restart-policy.js';

const SECONDS = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/** A crash as a log level and line. */
export interface CrashLine {
  readonly level: 'warn' | 'error';
  readonly text: string;
}

/** `decision` null: no restart was considered, for the reason `notRestarted`. */
export function crashLine(
  message: string,
  pid: number,
  decision: RestartDecision | null,
  notRestarted: string,
): CrashLine {
  const subject = `${message} (pid ${pid})`;
  if (decision === null)
    return { level: 'warn', text: `${subject}; not restarted (${notRestarted})` };
  if (decision.action === 'give-up')
    return { level: 'error', text: `${subject}; ${decision.reason}; left crashed` };
  return {
    level: 'warn',
    text: `${subject}; restart ${decision.attempt} in ${SECONDS(decision.delayMs)}`,
  };
}

export function logCrash(logger: Logger, line: CrashLine): void {
  if (line.level === 'error') logger.error(line.text);
  else logger.warn(line.text);
}
