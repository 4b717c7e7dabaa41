/** The process and config subcommands; each command's code is imported only when it runs. */
import type { Command } from 'commander';
import { contextOf } from './context.cjs';
import { examples, run } from './define-helpers.cjs';

export function processCommands(program: Command): void {
  program
    .command('status')
    .description(
      'show the processes: state (and what it waits for), pid, uptime, restarts, CPU, memory, port',
    )
    .argument('[name...]', 'only these processes')
    .option('--json', 'print the API objects ({processes: [...]}) instead of the table')
    .option('-w, --watch', 'redraw the table in place until Ctrl-C')
    .option('--interval <seconds>', 'refresh period of --watch', '2')
    .addHelpText(
      'after',
      examples(
        'stackd status',
        'stackd status web worker',
        'stackd status --watch',
        'stackd status --json | jq ".processes[].status"',
      ),
    )
    .action(
      run(async (command) => {
        const { status } =
          require('./commands/status.cjs') as typeof import('./commands/status.cjs');
        await status(contextOf(command), command.args, command.opts());
      }),
    );
  for (const action of ['start', 'stop', 'restart'] as const)
    program
      .command(action)
      .description(
        action === 'stop'
          ? 'stop processes and wait until each is gone'
          : `${action} processes and wait for the outcome (running, or failed with the reason)`,
      )
      .argument('[name...]', 'the processes (names as `stackd status` shows them)')
      .option('-a, --all', 'every enabled process (never the API itself)')
      .option('--no-wait', 'return once the host has the request')
      .addHelpText(
        'after',
        examples(
          `stackd ${action} web`,
          `stackd ${action} "Demo Web" worker`,
          `stackd ${action} --all`,
        ),
      )
      .action(
        run(async (command) => {
          const { control } =
            require('./commands/control.cjs') as typeof import('./commands/control.cjs');
          await control(contextOf(command), action, command.args, command.opts());
        }),
      );
  program
    .command('logs')
    .description(
      'print the last lines of the logs, and with -f follow them live (reconnecting without losing a line)',
    )
    .argument('[name...]', 'the processes (every process when none is given)')
    .option('-n, --lines <count>', 'how many of the last lines (default 10; with --since, all)')
    .option('-f, --follow', 'keep printing new lines until Ctrl-C')
    .option(
      '--since <time>',
      'only lines stamped since a duration ago (30s, 10m, 2h, 1d) or a date',
    )
    .addHelpText(
      'after',
      examples(
        'stackd logs web',
        'stackd logs -f',
        'stackd logs web worker -n 100 -f',
        'stackd logs web --since 10m',
      ),
    )
    .action(
      run(async (command) => {
        const { logs } = require('./commands/logs.cjs') as typeof import('./commands/logs.cjs');
        await logs(contextOf(command), command.args, command.opts());
      }),
    );
  program
    .command('graph')
    .description('the dependency graph: each process, and under it what waits for it (and how)')
    .option('--dot', 'print Graphviz source instead')
    .option('--all', 'include soft links (documented integrations), not only startup dependencies')
    .addHelpText('after', examples('stackd graph', 'stackd graph --dot | dot -Tsvg > graph.svg'))
    .action(
      run(async (command) => {
        const { graph } = require('./commands/graph.cjs') as typeof import('./commands/graph.cjs');
        await graph(contextOf(command), command.opts());
      }),
    );
}

export function configCommands(program: Command): void {
  const config = program
    .command('config')
    .description('read or change the configuration of the running host')
    .addHelpText(
      'after',
      examples(
        'stackd config get web.port',
        'stackd config set web.port 8082 --persist',
        'stackd config edit',
      ),
    );
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
        const { configGet } =
          require('./commands/config.cjs') as typeof import('./commands/config.cjs');
        await configGet(contextOf(command), command.args[0]);
      }),
    );
  config
    .command('set')
    .description('set the value at a dotted path; the host validates it (a JSON value, else text)')
    .argument('<path>', 'keys joined by dots, e.g. web.port')
    .argument('<value>', 'JSON (8082, true, ["a"]) or plain text')
    .option('--persist', 'also write it to the config file')
    .addHelpText(
      'after',
      examples(
        'stackd config set web.port 8082',
        'stackd config set web.enabled false --persist',
        'stackd config set web.env \'{"NODE_ENV":"production"}\'',
      ),
    )
    .action(
      run(async (command) => {
        const { configSet } =
          require('./commands/config.cjs') as typeof import('./commands/config.cjs');
        const [path, value] = command.args as [string, string];
        await configSet(
          contextOf(command),
          path,
          value,
          command.opts<{ persist?: boolean }>().persist === true,
        );
      }),
    );
  config
    .command('edit')
    .description('open the configuration in $EDITOR, send the changes; reopens on an error')
    .option('--persist', 'also write it to the config file')
    .addHelpText('after', examples('EDITOR=nano stackd config edit --persist'))
    .action(
      run(async (command) => {
        const { configEdit } =
          require('./commands/config.cjs') as typeof import('./commands/config.cjs');
        await configEdit(
          contextOf(command),
          command.opts<{ persist?: boolean }>().persist === true,
        );
      }),
    );
}
