/** Small helpers the command definitions share. */
import type { Command } from 'commander';

type Action = (command: Command) => Promise<void> | void;

/** The examples block every command's --help ends with. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

/** A commander action that hands over the command itself (its args and options). */
export function run(action: Action) {
  return async (...args: unknown[]): Promise<void> => {
    await action(args[args.length - 1] as Command);
  };
}
