/**
 * Secrets on a command line: `--api-key=VALUE` and `--password VALUE` show as
 * `--api-key=[REDACTED]` and `--password [REDACTED]` wherever a command is shown, with the same
 * name rule as configuration keys. The process itself still gets the real arguments.
 */
import { isSecretName } from './secret-names.js';

const REDACTED = '[REDACTED]';

/** A flag alone: `--password`, `-token`. */
const FLAG = /^-{1,2}([A-Za-z][\w.-]*)$/;
/** A flag with its value: `--api-key=VALUE`. */
const FLAG_WITH_VALUE = /^(-{1,2}([A-Za-z][\w.-]*)=)([\s\S]+)$/;

/** True when `argument` is a flag whose value (the next argument) is a secret. */
export function isSecretFlag(argument: unknown): boolean {
  if (typeof argument !== 'string') return false;
  const match = FLAG.exec(argument);
  return match !== null && isSecretName(match[1] ?? '');
}

function redactArgument(argument: unknown, previous: unknown): unknown {
  if (typeof argument !== 'string' || argument === '' || argument === REDACTED) return argument;
  const joined = FLAG_WITH_VALUE.exec(argument);
  if (joined !== null)
    return isSecretName(joined[2] ?? '') && joined[3] !== REDACTED
      ? `${joined[1] ?? ''}${REDACTED}`
      : argument;
  // `--password --verbose`: the flag had no value; the next flag is not one.
  return isSecretFlag(previous) && !argument.startsWith('-') ? REDACTED : argument;
}

/** A command array as it may be shown: secret flag values redacted. */
export function redactArguments(items: readonly unknown[]): unknown[] {
  return items.map((item, index) => redactArgument(item, items[index - 1]));
}

/** `--flag=value`, `--flag value`, `--flag "quoted value"` inside a command written as a string. */
const FLAG_IN_STRING =
  /(^|\s)(-{1,2}([A-Za-z][\w.-]*))(=|\s+)(?!-)(?!\[REDACTED\])("[^"]*"|'[^']*'|[^\s"']+)/g;

/** A command written as one string, as it may be shown. */
export function redactCommandString(command: string): string {
  if (!command.includes('-')) return command;
  return command.replace(
    FLAG_IN_STRING,
    (match: string, lead: string, flag: string, name: string, separator: string) =>
      isSecretName(name) ? `${lead}${flag}${separator}${REDACTED}` : match,
  );
}

/** Keys whose value is a command line. */
export function isCommandKey(key: string | undefined): boolean {
  return key === 'command' || key === 'args';
}
