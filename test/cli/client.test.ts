/** The `stackd` client against a real host: exit codes, --json, start/stop, config, graph. */
import { Value } from '@sinclair/typebox/value';
import test from 'ava';
import { join } from 'node:path';
import { ProcessListBody } from '../../plugins/supervisor/schemas.js';
import { eventually } from '../helpers/eventually.js';
import { request } from '../helpers/http.js';
import { freePort } from '../helpers/ports.js';
import { startHost, tempDir, type RunningHostProcess } from '../helpers/start-host.js';
import { clientEnv, counterBlock, runClient, spawnClient } from './run-client.js';

let host: RunningHostProcess;
let env: Record<string, string>;

test.before(async () => {
  const logs = tempDir('stackd-cli-logs-');
  host = await startHost({
    config: {
      counter: counterBlock('Counter', join(logs, 'counter.log'), 200),
      sleeper: {
        enabled: false,
        process_name: 'Sleeper',
        command: [process.execPath, '-e', 'setInterval(()=>{},1000)'],
        port: 10,
      },
      idle: {
        enabled: false,
        process_name: 'Idle',
        command: [process.execPath, '-e', 'setInterval(()=>{},1000)'],
        port: 9,
      },
      broken: {
        enabled: false,
        process_name: 'Broken',
        command: [process.execPath, '-e', 'process.exit(3)'],
      },
    },
  });
  env = clientEnv(host.url);
  // The table tests read Counter as running: wait out its start check first.
  const url = host.url;
  await eventually(
    async () =>
      (await request(url, '/process/service-status?process_name=Counter')).body.status ===
      'running',
    { what: 'Counter running' },
  );
});

test.after.always(async () => {
  await host?.stop();
});

test('status prints the table and exits 0', async (t) => {
  const result = await runClient(['status'], { env });
  t.is(result.code, 0, result.stderr);
  const lines = result.stdout.trim().split('\n');
  t.regex(lines[0] ?? '', /^NAME\s+STATE\s+PID\s+UPTIME\s+RESTARTS\s+CPU\s+MEMORY\s+PORT$/);
  t.regex(result.stdout, /Counter\s+running\s+\d+/);
  t.regex(result.stdout, /Idle\s+stopped\s+-\s+-\s+0\s+-\s+-\s+9$/m);
  t.false(result.stdout.includes('\x1b['), 'no colour when not a TTY');
});

test('status --json prints the API objects and matches the response schema', async (t) => {
  const result = await runClient(['status', '--json', 'Counter'], { env });
  t.is(result.code, 0, result.stderr);
  const body: unknown = JSON.parse(result.stdout);
  t.true(
    Value.Check(ProcessListBody, body),
    [...Value.Errors(ProcessListBody, body)].map((e) => `${e.path} ${e.message}`).join('; '),
  );
  t.deepEqual(
    (body as ProcessListBody).processes.map((entry) => entry.process_name),
    ['Counter'],
  );
});

test('global options are accepted after the subcommand', async (t) => {
  const result = await runClient(['status', '--url', host.url], {
    env: { ...env, STACKD_URL: 'http://127.0.0.1:1' },
  });
  t.is(result.code, 0, result.stderr);
});

test('usage errors exit 2: start without a name or --all, an unknown option', async (t) => {
  const start = await runClient(['start'], { env });
  t.is(start.code, 2);
  t.regex(start.stderr, /--all/);
  const unknown = await runClient(['status', '--bogus'], { env });
  t.is(unknown.code, 2);
  t.regex(unknown.stderr, /unknown option '--bogus'/);
});

test('an unreachable host exits 3 within 10 s naming host:port', async (t) => {
  const port = await freePort();
  const result = await runClient(['status'], {
    env: { ...env, STACKD_URL: `http://127.0.0.1:${port}` },
  });
  t.is(result.code, 3);
  t.true(result.ms < 10_000);
  t.true(result.stderr.includes(`127.0.0.1:${port}`), result.stderr);
  t.is(result.stderr.trim().split('\n').length, 1, 'one line');
  t.regex(result.stderr, /pass --url/);
});

test('start waits and prints running; a failing start prints the reason and exits 1', async (t) => {
  const started = await runClient(['start', 'Sleeper'], { env });
  t.is(started.code, 0, started.stderr);
  t.regex(started.stdout, /Sleeper: running \(pid \d+\)/);
  const stopped = await runClient(['stop', 'sleeper'], { env });
  t.is(stopped.code, 0, stopped.stderr);
  t.regex(stopped.stdout, /Sleeper: stopped/);
  const broken = await runClient(['start', 'Broken'], { env });
  t.is(broken.code, 1);
  t.regex(broken.stdout, /Broken: failed — .*(exit|code 3)/i);
  const unknown = await runClient(['restart', 'Nope'], { env });
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /no process named 'Nope'/);
});

test.serial('config get, and config set shows the host validation message', async (t) => {
  const get = await runClient(['config', 'get', 'idle.port'], { env });
  t.is(get.code, 0, get.stderr);
  t.is(get.stdout.trim(), '9');
  const bad = await runClient(['config', 'set', 'sleeper.port', 'not-a-port'], { env });
  t.is(bad.code, 1);
  t.regex(bad.stderr, /updates\.sleeper\.port.*HTTP 422/);
  const good = await runClient(['config', 'set', 'sleeper.port', '10'], { env });
  t.is(good.code, 0, good.stderr);
  t.is((await runClient(['config', 'get', 'sleeper.port'], { env })).stdout.trim(), '10');
});

test.serial(
  'config edit sends the edited document and reopens the editor after a rejected edit',
  async (t) => {
    const dir = tempDir('stackd-cli-editor-');
    // First edit: an invalid port (the host answers 422); second edit: a valid one.
    const editor = join(dir, 'edit.sh');
    const { writeFileSync, chmodSync, readFileSync } = await import('node:fs');
    writeFileSync(
      editor,
      [
        '#!/bin/sh',
        `n=$(cat "${dir}/count" 2>/dev/null || echo 0); echo $((n+1)) > "${dir}/count"`,
        `if [ "$n" = 0 ]; then v='"bad"'; else v=11; fi`,
        `sed -i "s/\\"port\\": 10\\b/\\"port\\": $v/; s/\\"port\\": \\"bad\\"/\\"port\\": $v/" "$1"`,
      ].join('\n'),
    );
    chmodSync(editor, 0o755);
    const result = await runClient(['config', 'edit'], { env: { ...env, EDITOR: editor } });
    t.is(result.code, 0, result.stderr);
    t.regex(result.stderr, /rejected: .*port.*reopening/);
    t.is(readFileSync(join(dir, 'count'), 'utf8').trim(), '2');
    t.is((await runClient(['config', 'get', 'sleeper.port'], { env })).stdout.trim(), '11');
  },
);

test('help on every command has examples; completion scripts name the subcommands', async (t) => {
  for (const command of [
    ['status'],
    ['start'],
    ['logs'],
    ['config', 'set'],
    ['graph'],
    ['login'],
    ['users', 'add'],
  ]) {
    const result = await runClient([...command, '--help'], { env });
    t.is(result.code, 0);
    t.regex(result.stdout, /Examples:\n {2}\$ stackd/, command.join(' '));
  }
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await runClient(['completion', shell], { env });
    t.is(result.code, 0);
    t.regex(result.stdout, /__complete processes/);
  }
  const names = await runClient(['__complete', 'processes'], { env });
  t.deepEqual(names.stdout.trim().split('\n').sort(), ['Broken', 'Counter', 'Idle', 'Sleeper']);
});

test('a reader that stops early (`stackd help logs | head -1`) is not an error', async (t) => {
  for (let round = 0; round < 5; round += 1) {
    const child = spawnClient(['help', 'logs'], { env });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // Like `head -1`: read the first chunk, then close the pipe while help is still writing.
    child.stdout?.once('data', () => child.stdout?.destroy());
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    t.is(code, 0, stderr);
    t.is(stderr, '');
  }
});

test('graph prints each process; --dot is Graphviz', async (t) => {
  const tree = await runClient(['graph'], { env });
  t.is(tree.code, 0, tree.stderr);
  t.regex(tree.stdout, /^Counter$/m);
  const dot = await runClient(['graph', '--dot'], { env });
  t.regex(dot.stdout, /^digraph stackd \{[\s\S]*"Counter";[\s\S]*\}$/m);
});
