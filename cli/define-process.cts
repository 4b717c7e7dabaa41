/** The process subcommands; each command's code is required only when it runs. */
import type { Command } from 'commander';
import { contextOf } from './context.cjs';
import { examples, run } from './define-helpers.cjs';

/** `status`. */
export function statusCommand(program: Command): void {
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
}

/** `start`, `stop` and `restart`. */
export function controlCommands(program: Command): void {
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
}

/** `logs`. */
export function logsCommand(program: Command): void {
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
}

/** `graph`. */
export function graphCommand(program: Command): void {
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
