#!/usr/bin/env node
/**
 * The `stackd` command. With a client subcommand (`stackd status`, `stackd logs -f`, …) it is a
 * client of a running host and loads only the client code; otherwise it runs the host exactly
 * as `dist/host/main.js` does. This file stays tiny and requires only the leaf list of
 * subcommand names, so `stackd status` pays neither the host's ~560 modules nor uWebSockets.js.
 *
 * The client is CommonJS: on Node 20 an ES module entry starts the ESM loader, and every ES
 * module costs a resolve/link step on top of its compile; measured on the 2-core machine, the
 * ESM client spent ~85 ms of CPU beyond `node -e 0`, the same code as CommonJS far less.
 */
import { CLIENT_COMMANDS } from './command-names.cjs';

const CLIENT_COMMAND_SET = new Set<string>([...CLIENT_COMMANDS, 'help', '__complete']);
// Host options that take a value: their value is not a subcommand (`stackd --config x status`).
const HOST_VALUE_OPTIONS = new Set(['--config', '--data-dir', '--host', '--port', '--plugins']);
const CLIENT_VALUE_OPTIONS = new Set(['--url', '--token']);

/** The first word of argv that is not an option or an option's value. */
function firstCommand(argv: readonly string[]): string | undefined {
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (!arg.startsWith('-')) return arg;
    if (!arg.includes('=') && (HOST_VALUE_OPTIONS.has(arg) || CLIENT_VALUE_OPTIONS.has(arg)))
      index += 1;
  }
  return undefined;
}

function main(): void {
  const command = firstCommand(process.argv.slice(2));
  if (command !== undefined && CLIENT_COMMAND_SET.has(command)) {
    // `stackd help | head -1`: a reader that leaves early is not an error (as with `ls | head`).
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
    // The bundled client with V8's code cache (see there).
    const { loadClient } = require('./client-loader.cjs') as typeof import('./client-loader.cjs');
    const { runClient } = loadClient();
    // `help` lists every command; any other builds only its own (cheaper to start).
    void runClient(process.argv, command === 'help' ? undefined : command);
    return;
  }
  // The host is an ES module: import() is the way in from CommonJS.
  import('../host/main.js').catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}

main();
