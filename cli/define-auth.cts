/** The login, logout, users and completion subcommands. */
import type { Command } from 'commander';
import { contextOf } from './context.cjs';
import { examples, run } from './define-helpers.cjs';

export function authCommands(program: Command): void {
  program
    .command('login')
    .description('sign in to the host; the token pair is kept (readable only by you) and refreshed')
    .option('-u, --username <name>', 'the user (asked when not given)')
    .option('--password-stdin', 'read the password from standard input instead of the terminal')
    .addHelpText(
      'after',
      examples(
        'stackd login -u admin',
        'printf %s "$PASSWORD" | stackd login -u admin --password-stdin',
      ),
    )
    .action(
      run(async (command) => {
        const { login } = require('./commands/auth.cjs') as typeof import('./commands/auth.cjs');
        const options = command.opts<{ username?: string; passwordStdin?: boolean }>();
        await login(contextOf(command), {
          ...(options.username === undefined ? {} : { username: options.username }),
          passwordStdin: options.passwordStdin === true,
        });
      }),
    );
  program
    .command('logout')
    .description('revoke the stored refresh token and forget the token pair of this host')
    .addHelpText('after', examples('stackd logout'))
    .action(
      run(async (command) => {
        const { logout } = require('./commands/auth.cjs') as typeof import('./commands/auth.cjs');
        await logout(contextOf(command));
      }),
    );
  const users = program
    .command('users')
    .description('list, add, disable or enable user accounts')
    .addHelpText(
      'after',
      examples('stackd users list', 'stackd users add alice', 'stackd users disable alice'),
    );
  users
    .command('list')
    .description('the user accounts and whether each is disabled')
    .option('--json', 'print the API object ({users: [...]})')
    .addHelpText('after', examples('stackd users list'))
    .action(
      run(async (command) => {
        const { usersList } =
          require('./commands/auth.cjs') as typeof import('./commands/auth.cjs');
        await usersList(contextOf(command), command.opts<{ json?: boolean }>().json === true);
      }),
    );
  users
    .command('add')
    .description('add a user (the password is asked twice without echo)')
    .argument('<username>')
    .option('--password-stdin', 'read the password from standard input')
    .addHelpText(
      'after',
      examples(
        'stackd users add alice',
        'printf %s "$PW" | stackd users add alice --password-stdin',
      ),
    )
    .action(
      run(async (command) => {
        const { usersAdd } = require('./commands/auth.cjs') as typeof import('./commands/auth.cjs');
        const stdin = command.opts<{ passwordStdin?: boolean }>().passwordStdin === true;
        await usersAdd(contextOf(command), command.args[0] as string, stdin);
      }),
    );
  for (const disabled of [true, false])
    users
      .command(disabled ? 'disable' : 'enable')
      .description(
        disabled ? 'disable a user (the last active user cannot be)' : 'enable a disabled user',
      )
      .argument('<username>')
      .addHelpText('after', examples(`stackd users ${disabled ? 'disable' : 'enable'} alice`))
      .action(
        run(async (command) => {
          const { usersSetDisabled } =
            require('./commands/auth.cjs') as typeof import('./commands/auth.cjs');
          await usersSetDisabled(contextOf(command), command.args[0] as string, disabled);
        }),
      );
}

export function completionCommands(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script (process names come from the running host)')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      examples(
        'source <(stackd completion bash)    # in ~/.bashrc',
        'source <(stackd completion zsh)     # in ~/.zshrc',
        'stackd completion fish > ~/.config/fish/completions/stackd.fish',
      ),
    )
    .action(
      run((command) => {
        const { completion } =
          require('./commands/completion.cjs') as typeof import('./commands/completion.cjs');
        completion(contextOf(command), command.args[0] as string);
      }),
    );
  program
    .command('__complete', { hidden: true })
    .argument('<what>')
    .action(
      run(async (command) => {
        const { completeProcesses } =
          require('./commands/completion.cjs') as typeof import('./commands/completion.cjs');
        await completeProcesses(contextOf(command));
      }),
    );
}
