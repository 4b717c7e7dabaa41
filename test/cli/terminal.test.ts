/**
 * What a person sees in a real terminal (tmux): the status table in colour, `--watch` redrawing
 * in place, and the password prompt of `stackd login` not echoing.
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { eventually } from '../helpers/eventually.js';
import { request } from '../helpers/http.js';
import { startHost, tempDir, type RunningHostProcess } from '../helpers/start-host.js';
import { BIN_JS } from './run-client.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const tmuxTest = hasTmux ? test.serial : test.serial.skip;

let host: RunningHostProcess;
const session = `stackd-cli-${process.pid}`;
const socket = `stackd-cli-${process.pid}`;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
}

function screen(): string {
  return tmux('capture-pane', '-p', '-e', '-t', session);
}

/** The screen without its escape sequences. */
function plain(): string {
  // eslint-disable-next-line no-control-regex
  return screen().replace(/\x1b\[[0-9;]*m/g, '');
}

function type(text: string): void {
  tmux('send-keys', '-t', session, '-l', text);
  tmux('send-keys', '-t', session, 'Enter');
}

test.before(async () => {
  if (!hasTmux) return;
  host = await startHost({
    config: {
      stackd: { auth: { scrypt_cost_log2: 14 } },
      web: {
        enabled: true,
        process_name: 'Web',
        command: [process.execPath, '-e', 'setInterval(()=>{},1000)'],
        port: 8081,
      },
    },
  });
  await eventually(
    async () =>
      (await request(host.url, '/process/service-status?process_name=Web')).body.status ===
      'running',
    { timeoutMs: 30_000, what: 'Web running' },
  );
  tmux(
    'new-session',
    '-d',
    '-s',
    session,
    '-x',
    '120',
    '-y',
    '40',
    '-e',
    `STACKD_URL=${host.url}`,
    '-e',
    `XDG_CONFIG_HOME=${tempDir('stackd-cli-home-')}`,
    '-e',
    'NO_COLOR=',
    'sh',
  );
  type(`alias stackd='${process.execPath} ${BIN_JS}'; export PS1='$ '; clear`);
});

test.after.always(async () => {
  if (!hasTmux) return;
  spawnSync('tmux', ['-L', socket, 'kill-server']);
  await host?.stop();
});

tmuxTest('status shows the table with the state in colour', async (t) => {
  type('clear; stackd status');
  const text = await eventually(
    () => {
      const text = screen();
      // eslint-disable-next-line no-control-regex
      const visible = text.replace(/\x1b\[[0-9;]*m/g, '');
      return /Web\s+running/.test(visible) && /^\$\s*$/m.test(visible) ? text : undefined;
    },
    { timeoutMs: 20_000, what: 'the table' },
  ).catch((error: unknown) => {
    t.log(plain());
    throw error;
  });
  t.regex(text, /NAME.*STATE.*PID.*UPTIME.*RESTARTS.*CPU.*MEMORY.*PORT/);
  // eslint-disable-next-line no-control-regex
  t.regex(text, /\x1b\[32mrunning\x1b\[(0|39)?m/, 'running in green');
  t.regex(text, /8081/);
});

tmuxTest('status --watch redraws the table in place', async (t) => {
  type('clear; stackd status --watch --interval 0.5');
  const first = await eventually(() => (screen().includes('Web') ? screen() : undefined), {
    timeoutMs: 20_000,
  });
  const stampOf = (text: string) => /every 0\.5s — (\S+)/.exec(text)?.[1];
  const firstStamp = stampOf(first);
  const later = await eventually(
    () => {
      const text = screen();
      return stampOf(text) !== undefined && stampOf(text) !== firstStamp ? text : undefined;
    },
    { timeoutMs: 20_000, what: 'a redraw' },
  );
  // Redrawn in place: one header, one row per process, however many frames were drawn.
  t.is(later.match(/NAME/g)?.length, 1);
  t.is(later.match(/every 0\.5s/g)?.length, 1);
  t.is(later.match(/^.*Web.*$/gm)?.length, 1);
  tmux('send-keys', '-t', session, 'C-c');
});

tmuxTest(
  'config set --dry-run shows the diff and the plan in colour, and changes nothing',
  async (t) => {
    type('clear; stackd config set web.port 8090 --dry-run');
    const text = await eventually(
      () => (/Processes \(in order\):[\s\S]*\n\$\s*$/m.test(plain()) ? screen() : undefined),
      { timeoutMs: 20_000, what: 'the preview' },
    ).catch((error: unknown) => {
      t.log(plain());
      throw error;
    });
    const visible = plain();
    t.regex(visible, /dry run: web\.port = 8090 would do this \(nothing changed\)/);
    t.regex(visible, /web\.port\s+8081 → 8090/);
    t.regex(visible, /1\.\s+restart\s+Web\s+port changed/);
    // eslint-disable-next-line no-control-regex
    t.regex(text, /\x1b\[33mrestart\x1b\[(0|39)?m/, 'restart in yellow');
    const config = await request(host.url, '/config');
    t.is((config.body as { web: { port: number } }).web.port, 8081, 'nothing changed');
  },
);

tmuxTest('login asks for the password without echoing it', async (t) => {
  const setup = await request(host.url, '/api/auth/setup', {
    body: { username: 'admin', password: 'secret-passw0rd' },
  });
  t.is(setup.status, 200);
  type('clear; stackd login -u admin');
  await eventually(() => screen().includes('Password:'), { timeoutMs: 20_000, what: 'the prompt' });
  type('secret-passw0rd');
  const text = await eventually(() => (screen().includes('logged in') ? screen() : undefined), {
    timeoutMs: 20_000,
    what: 'the login',
  });
  t.false(text.includes('secret-passw0rd'), 'the password is not on the screen');
  t.regex(text, /logged in to 127\.0\.0\.1:\d+ as admin/);
  type('clear; stackd status');
  const after = await eventually(() => (/Web\s+running/.test(plain()) ? plain() : undefined), {
    timeoutMs: 20_000,
    what: 'status after login',
  });
  t.notRegex(after, /not authorised/);
});
