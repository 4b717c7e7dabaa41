#!/usr/bin/env node
/**
 * The `stackd` command. With a client subcommand (`stackd status`, `stackd logs -f`, …) it is a
 * client of a running host and loads only the client code; otherwise it runs the host exactly
 * as `dist/host/main.js` does. This file stays tiny and imports only the leaf list of subcommand names, so
 * `stackd status` pays neither the host's ~560 modules nor uWebSockets.js.
 */
import { CLIENT_COMMANDS } from './command-names.js';

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

const command = firstCommand(process.argv.slice(2));
if (command !== undefined && CLIENT_COMMAND_SET.has(command)) {
  // Node 22+ keeps compiled client modules on disk between runs (absent on Node 20: a no-op).
  const { default: nodeModule } = await import('node:module');
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  const { runClient } = await import('./program.js');
  await runClient(process.argv);
} else {
  await import('../host/main.js');
}
