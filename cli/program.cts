/**
 * The client side of `stackd`. Arguments are parsed by commander: mature, no dependencies of
 * its own, subcommands with their own help and examples, and one module to load, which matters
 * for `stackd status` being about as quick as `node -e 0`.
 */
import { Command, CommanderError } from 'commander';
import { CliError, EXIT } from './errors.cjs';

type Definition = (program: Command) => void;
type ProcessDefinitions = typeof import('./define-process.cjs');
type AuthDefinitions = typeof import('./define-auth.cjs');

// Each definition module is required only when one of its commands runs (or for help).
const processDefinitions = (): ProcessDefinitions =>
  require('./define-process.cjs') as ProcessDefinitions;
const authDefinitions = (): AuthDefinitions => require('./define-auth.cjs') as AuthDefinitions;

const status: Definition = (program) => processDefinitions().statusCommand(program);
const control: Definition = (program) => processDefinitions().controlCommands(program);
const logs: Definition = (program) => processDefinitions().logsCommand(program);
const graph: Definition = (program) => processDefinitions().graphCommand(program);
const config: Definition = (program) =>
  (require('./define-config.cjs') as typeof import('./define-config.cjs')).configCommands(program);
const auth: Definition = (program) => authDefinitions().authCommands(program);
const completion: Definition = (program) => authDefinitions().completionCommands(program);

/** Every command's definition, in the order `stackd help` lists them. */
const DEFINITIONS: readonly Definition[] = [status, control, logs, graph, config, auth, completion];

/** The definition that declares each subcommand. */
const DEFINITION_OF: Readonly<Record<string, Definition>> = {
  status,
  start: control,
  stop: control,
  restart: control,
  logs,
  graph,
  config,
  login: auth,
  logout: auth,
  users: auth,
  completion,
  __complete: completion,
};

/**
 * The program: global options (accepted before or after the subcommand) and the commands. Given
 * the subcommand being run, only its definition is built: declaring every command, option and
 * help text cost as much CPU as the whole `stackd status` request; help lists them all.
 */
export function buildProgram(subcommand?: string): Command {
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
  const only = subcommand === undefined ? undefined : DEFINITION_OF[subcommand];
  for (const define of only === undefined ? DEFINITIONS : [only]) define(program);
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

/** Parse and run `subcommand` (every command when not given); exits with the contract's codes. */
export async function runClient(argv: readonly string[], subcommand?: string): Promise<never> {
  const program = buildProgram(subcommand);
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
