/**
 * The client side of `stackd`. Arguments are parsed by commander: mature, no dependencies of
 * its own, subcommands with their own help and examples, and one module to load, which matters
 * for `stackd status` being about as quick as `node -e 0`.
 */
import { Command, CommanderError } from 'commander';
import { authCommands, completionCommands } from './define-auth.cjs';
import { configCommands } from './define-config.cjs';
import { processCommands } from './define-process.cjs';
import { CliError, EXIT } from './errors.cjs';

/** The program: global options (accepted before or after the subcommand) and every command. */
export function buildProgram(): Command {
  const program = new Command('stackd')
    .description(
      'stackd client: control a running stackd host from the terminal\n(`stackd` with no subcommand runs the host itself)',
    )
    .option(
      '--url <url>',
      'the host (env STACKD_URL; else host/port of the config file; else http://127.0.0.1:8000)',
    )
    .option(
      '--token <token>',
      'an access token to use instead of `stackd login` (env STACKD_TOKEN)',
    )
    .option(
      '--config <file>',
      'the config file whose api_service host/port to use (env STACKD_CONFIG)',
    )
    .option('--no-color', 'no colours (also NO_COLOR, or when output is not a terminal)')
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(add --help for usage and examples)')
    .exitOverride();
  processCommands(program);
  configCommands(program);
  authCommands(program);
  completionCommands(program);
  // Nested groups (config, users) inherit the settings that matter for exit codes and help.
  for (const command of program.commands) {
    command.configureHelp({ showGlobalOptions: true }).exitOverride();
    for (const sub of command.commands)
      sub
        .configureHelp({ showGlobalOptions: true })
        .showHelpAfterError('(add --help for usage and examples)')
        .exitOverride();
  }
  return program;
}

/** Parse and run; exits with the contract's codes. */
export async function runClient(argv: readonly string[]): Promise<never> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    process.exit(exitCodeOf(error));
  }
  process.exit(typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok);
}

function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) {
    // Help and version shown on request are not errors; commander already printed the message.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof CliError) {
    process.stderr.write(`stackd: ${error.message}\n`);
    return error.code;
  }
  process.stderr.write(`stackd: ${error instanceof Error ? error.message : String(error)}\n`);
  return EXIT.failed;
}
