/**
 * The zsh and fish completion scripts, run in the real shells (skipped where a shell is not
 * installed): subcommands complete from the script, process names from the running host, and a
 * name with a space ends up as one argument. zsh completes only inside its line editor, so it
 * runs in a real terminal (tmux); fish answers `complete -C` without one.
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../helpers/eventually.js';
import { request } from '../helpers/http.js';
import { startHost, tempDir, type RunningHostProcess } from '../helpers/start-host.js';
import { BIN_JS, clientEnv } from './run-client.js';

const installed = (command: string): boolean =>
  spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const zshTest = installed('zsh') && installed('tmux') ? test.serial : test.serial.skip;
const fishTest = installed('fish') ? test.serial : test.serial.skip;

const IDLE = [process.execPath, '-e', 'setInterval(()=>{},1000)'];

let host: RunningHostProcess | undefined;
/** The environment of the shells: `stackd` on PATH (a real command, as installed), a temp home. */
let shellEnv: Record<string, string> = {};

test.before(async () => {
  if (!installed('zsh') && !installed('fish')) return;
  host = await startHost({
    config: {
      web: { enabled: true, process_name: 'Demo Web', command: IDLE },
      worker: { enabled: false, process_name: 'Worker', command: IDLE },
    },
  });
  const url = host.url;
  await eventually(
    async () =>
      (await request(url, '/process/service-status?process_name=Demo%20Web')).body.status ===
      'running',
    { timeoutMs: 30_000, what: 'Demo Web running' },
  );
  const bin = tempDir('stackd-cli-path-');
  writeFileSync(
    join(bin, 'stackd'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN_JS)} "$@"\n`,
  );
  chmodSync(join(bin, 'stackd'), 0o755);
  const home = tempDir('stackd-cli-shell-home-');
  shellEnv = {
    ...clientEnv(url),
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    PATH: `${bin}:${process.env.PATH ?? ''}`,
  };
});

test.after.always(async () => {
  await host?.stop();
});

fishTest('fish completes subcommands, and process names from the host', (t) => {
  /** What fish offers for a command line, without descriptions. */
  const complete = (line: string): string[] => {
    const result = spawnSync(
      'fish',
      ['--no-config', '-c', 'stackd completion fish | source; complete -C $argv[1]', line],
      { env: { ...process.env, ...shellEnv }, encoding: 'utf8' },
    );
    t.is(result.status, 0, result.stderr);
    return result.stdout
      .split('\n')
      .filter((entry) => entry !== '')
      .map((entry) => entry.split('\t')[0] ?? '');
  };
  t.deepEqual(complete('stackd rest'), ['restart']);
  t.deepEqual(complete('stackd restart Dem'), ['Demo Web']);
  t.deepEqual(complete('stackd logs Demo\\ W'), ['Demo Web']);
  t.deepEqual(complete('stackd status Wor'), ['Worker']);
  t.deepEqual(complete('stackd config ro'), ['rollback']);
  t.deepEqual(complete('stackd completion z'), ['zsh']);
});

zshTest(
  'zsh completes in its line editor, and a name with a space stays one argument',
  async (t) => {
    t.timeout(90_000);
    const socket = `stackd-zsh-${process.pid}`;
    const session = 'completion';
    // The server, started by the first call, hands its environment to the shell.
    const tmux = (...args: string[]): string =>
      execFileSync('tmux', ['-L', socket, ...args], {
        encoding: 'utf8',
        env: { ...process.env, ...shellEnv },
      });
    const screen = (): string => tmux('capture-pane', '-p', '-t', session);
    /** The screen shows `pattern` (else a timeout names what it shows). */
    const showing = (pattern: RegExp) => (): boolean => {
      const text = screen();
      if (!pattern.test(text)) throw new Error(`the screen shows ${JSON.stringify(text.trim())}`);
      return true;
    };
    tmux('new-session', '-d', '-s', session, '-x', '120', '-y', '30', 'zsh', '-f');
    try {
      tmux(
        'send-keys',
        '-t',
        session,
        '-l',
        "PS1='%% '; autoload -Uz compinit; compinit -u -D; source <(stackd completion zsh); clear",
      );
      tmux('send-keys', '-t', session, 'Enter');
      await eventually(() => screen().trim() === '%', { timeoutMs: 20_000, what: 'the prompt' });

      tmux('send-keys', '-t', session, '-l', 'stackd rest');
      tmux('send-keys', '-t', session, 'Tab');
      // capture-pane drops trailing blanks: the space zsh adds after the word is not on screen.
      await eventually(showing(/^% stackd restart$/m), {
        timeoutMs: 20_000,
        what: 'the subcommand completed',
      });
      tmux('send-keys', '-t', session, '-l', 'Dem');
      tmux('send-keys', '-t', session, 'Tab');
      await eventually(showing(/^% stackd restart Demo\\ Web$/m), {
        timeoutMs: 20_000,
        what: 'the process name completed from the host',
      });
      // Run it: the host restarts the one process the completed word names.
      tmux('send-keys', '-t', session, 'Enter');
      await eventually(showing(/^Demo Web: running/m), {
        timeoutMs: 60_000,
        what: 'the restart of Demo Web',
      });
      t.regex(screen(), /% stackd restart Demo\\ Web\nDemo Web: running/);
    } finally {
      spawnSync('tmux', ['-L', socket, 'kill-server']);
    }
  },
);
