/** What every client command works with: the API client, output streams and colours. */
import type { Command } from 'commander';
import { ApiClient } from './api.cjs';
import { colourEnabled, painter, type Paint } from './output.cjs';
import { resolveBaseUrl } from './target.cjs';

/** The options every client command accepts (before or after the subcommand). */
export interface GlobalOptions {
  readonly url?: string;
  readonly token?: string;
  readonly config?: string;
  readonly color: boolean;
}

export interface ClientContext {
  readonly api: ApiClient;
  readonly paint: Paint;
  readonly colour: boolean;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** The context of the command being run (its options merged with the program's). */
export function contextOf(command: Command): ClientContext {
  const options = command.optsWithGlobals<GlobalOptions>();
  const baseUrl = resolveBaseUrl({
    url: options.url,
    config: options.config,
    env: process.env,
    cwd: process.cwd(),
  });
  const token = options.token ?? process.env.STACKD_TOKEN;
  const colour = options.color && colourEnabled(process.stdout);
  return {
    api: new ApiClient(baseUrl, token),
    paint: painter(colour),
    colour,
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  };
}
