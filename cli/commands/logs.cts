/** `stackd logs [NAME…] [-n LINES] [-f] [--since TIME]`: the tail, then the live lines. */
import type { ClientContext } from '../context.cjs';
import { CliError, EXIT } from '../errors.cjs';
import { LogFollower } from '../log-follower.cjs';
import { followSocket } from '../log-socket.cjs';
import type { Colour } from '../output.cjs';
import { listProcesses, pickProcesses } from '../processes.cjs';

export interface LogsOptions {
  readonly lines?: string;
  readonly follow: boolean;
  readonly since?: string;
}

const NAME_COLOURS: readonly Colour[] = ['cyan', 'magenta', 'blue', 'yellow', 'green'];
const TIMESTAMP = /^\[?(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)/;

/** `--since`: "10m", "2h", "30s", "1d", or a date/time; the instant it means (ms). */
export function parseSince(text: string, now = Date.now()): number {
  const relative = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)$/.exec(text.trim());
  if (relative !== null) {
    const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[relative[2] as 's'];
    return now - Number(relative[1]) * unit;
  }
  const absolute = Date.parse(text);
  if (Number.isNaN(absolute))
    throw new CliError(
      `invalid --since '${text}': give a duration (30s, 10m, 2h, 1d) or a date (2026-01-31T12:00)`,
      EXIT.usage,
    );
  return absolute;
}

/** Keep lines stamped at or after `since`; an unstamped line goes with the line above it. */
export function linesSince(lines: readonly string[], since: number): string[] {
  let keep = false;
  return lines.filter((line) => {
    const stamp = TIMESTAMP.exec(line)?.[1];
    if (stamp !== undefined) {
      const time = Date.parse(stamp.replace(' ', 'T').replace(',', '.'));
      if (!Number.isNaN(time)) keep = time >= since;
    }
    return keep;
  });
}

/** Run `logs`. */
export async function logs(
  context: ClientContext,
  names: readonly string[],
  options: LogsOptions,
): Promise<void> {
  const since = options.since === undefined ? undefined : parseSince(options.since);
  // -n defaults to 10 lines; with --since, to every line since then.
  const count = Number(options.lines ?? (since === undefined ? 10 : Infinity));
  if (!(Number.isInteger(count) || count === Infinity) || count < 0)
    throw new CliError(`invalid --lines '${options.lines}': give a whole number`, EXIT.usage);
  const picked = pickProcesses(await listProcesses(context.api), names);
  const processNames = picked.map((entry) => entry.process_name);
  const print = printer(context, processNames, names.length !== 1);
  const follower = new LogFollower(context.api, processNames, {
    lines: print,
    notice: (text) => context.err(`${context.paint('yellow', text)}\n`),
  });
  const tailBytes = count === Infinity ? 8_388_608 : Math.max(16_384, count * 512);
  const tails = await follower.tail(tailBytes);
  for (const [name, lines] of tails) {
    const recent = since === undefined ? lines : linesSince(lines, since);
    print(
      name,
      count === Infinity ? recent : recent.slice(recent.length - Math.min(count, recent.length)),
    );
  }
  if (!options.follow) return;
  let down = false;
  await followSocket(context.api, processNames.length === 1 ? processNames[0] : undefined, {
    frame: (frame) => follower.receive(frame),
    connected: () => {
      if (down) context.err(`${context.paint('green', 'reconnected')}\n`);
      down = false;
      // Whatever was written since the tail (or while disconnected) is read now.
      follower.wakeAll();
    },
    lost: () => {
      if (!down)
        context.err(
          `${context.paint('yellow', `connection to ${context.api.hostPort} lost, retrying…`)}\n`,
        );
      down = true;
    },
  });
}

/** Prints lines, behind a coloured name column when several processes interleave. */
function printer(context: ClientContext, names: readonly string[], withNames: boolean) {
  const width = Math.max(0, ...names.map((name) => name.length));
  const prefixes = new Map(
    names.map((name, index) => [
      name,
      context.paint(NAME_COLOURS[index % NAME_COLOURS.length] as Colour, name.padEnd(width)) +
        context.paint('grey', ' | '),
    ]),
  );
  return (name: string, lines: readonly string[]): void => {
    if (lines.length === 0) return;
    const prefix = withNames ? (prefixes.get(name) ?? `${name} | `) : '';
    context.out(`${lines.map((line) => prefix + line).join('\n')}\n`);
  };
}
