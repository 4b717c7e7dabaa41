/** The config subcommands; each command's code is required only when it runs. */
import type { Command } from 'commander';
import { contextOf } from './context.cjs';
import { examples, run } from './define-helpers.cjs';

type ConfigModule = typeof import('./commands/config.cjs');
type HistoryModule = typeof import('./commands/config-history.cjs');

function configModule(): ConfigModule {
  return require('./commands/config.cjs') as ConfigModule;
}

function historyModule(): HistoryModule {
  return require('./commands/config-history.cjs') as HistoryModule;
}

export function configCommands(program: Command): void {
  const config = program
    .command('config')
    .description('read or change the configuration of the running host, see and undo changes')
    .addHelpText(
      'after',
      examples(
        'stackd config get web.port',
        'stackd config set web.port 8082 --dry-run',
        'stackd config set web.port 8082 --persist',
        'stackd config edit',
        'stackd config history',
        'stackd config rollback 3 --dry-run',
      ),
    );
  readCommands(config);
  writeCommands(config);
  historyCommands(config);
}

function readCommands(config: Command): void {
  config
    .command('get')
    .description('print the configuration, or the value at a dotted path (secrets redacted)')
    .argument('[path]', 'keys joined by dots, e.g. web.port')
    .addHelpText(
      'after',
      examples('stackd config get', 'stackd config get stackd.api_service.port'),
    )
    .action(
      run(async (command) => {
        await configModule().configGet(contextOf(command), command.args[0]);
      }),
    );
}

function writeCommands(config: Command): void {
  config
    .command('set')
    .description(
      'set the value at a dotted path; the host validates it (a JSON value, else text).\n' +
        'Refused when the configuration changed since it was read (the write names the ' +
        'generation it read, If-Match)',
    )
    .argument('<path>', 'keys joined by dots, e.g. web.port')
    .argument('<value>', 'JSON (8082, true, ["a"]) or plain text')
    .option('--persist', 'also write it to the config file')
    .option(
      '--dry-run',
      'change nothing: show the field diff and what each process would do, why, in which order',
    )
    .addHelpText(
      'after',
      examples(
        'stackd config set web.port 8082 --dry-run',
        'stackd config set web.port 8082',
        'stackd config set web.enabled false --persist',
        'stackd config set web.env \'{"NODE_ENV":"production"}\'',
      ),
    )
    .action(
      run(async (command) => {
        const [path, value] = command.args as [string, string];
        const options = command.opts<{ persist?: boolean; dryRun?: boolean }>();
        await configModule().configSet(contextOf(command), path, value, {
          persist: options.persist === true,
          dryRun: options.dryRun === true,
        });
      }),
    );
  config
    .command('edit')
    .description(
      'open the configuration in $EDITOR, send the changes; reopens on an error, and keeps ' +
        'your edit when the configuration changed meanwhile',
    )
    .option('--persist', 'also write it to the config file')
    .addHelpText('after', examples('EDITOR=nano stackd config edit --persist'))
    .action(
      run(async (command) => {
        const persist = command.opts<{ persist?: boolean }>().persist === true;
        await configModule().configEdit(contextOf(command), persist);
      }),
    );
}

function historyCommands(config: Command): void {
  config
    .command('history')
    .description(
      'the saved versions (version, when, who, paths changed); with VERSION, its diff ' +
        '(secrets redacted)',
    )
    .argument('[version]', 'one version: show what it changed')
    .option('--json', 'print the API object instead')
    .addHelpText('after', examples('stackd config history', 'stackd config history 3'))
    .action(
      run(async (command) => {
        const json = command.opts<{ json?: boolean }>().json === true;
        await historyModule().configHistory(contextOf(command), command.args[0], json);
      }),
    );
  config
    .command('rollback')
    .description(
      'restore the configuration as it was at VERSION (saved as a new version); ' +
        'processes restart as for any change',
    )
    .argument('<version>', 'a version from `stackd config history`')
    .option('--dry-run', 'change nothing: show what the rollback would do')
    .option('--reason <text>', 'why, kept with the new version')
    .addHelpText(
      'after',
      examples(
        'stackd config rollback 3 --dry-run',
        'stackd config rollback 3 --reason "bad port"',
      ),
    )
    .action(
      run(async (command) => {
        const options = command.opts<{ dryRun?: boolean; reason?: string }>();
        await historyModule().configRollback(contextOf(command), command.args[0] as string, {
          dryRun: options.dryRun === true,
          ...(options.reason === undefined ? {} : { reason: options.reason }),
        });
      }),
    );
}
