/**
 * Secrets in command-line arguments and in what a process prints: hidden from GET /config,
 * /process/processes, /logs, /ws/logs and the log file, while the process gets the real values
 * and a redacted command posted back keeps them.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../../helpers/eventually.js';
import { openSocket, request } from '../../helpers/http.js';
import { startHost, tempDir } from '../../helpers/start-host.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';

const SCRIPT = [
  "require('fs').writeFileSync(process.env.ARGV_FILE, JSON.stringify(process.argv.slice(1)));",
  "setInterval(() => console.log('hello ' + process.env.GREETING + ' ' + process.argv[3]), 200);",
].join('');

test('argument and environment secrets stay out of every API view and log', async (t) => {
  const work = tempDir('stackd-secrets-');
  const argvFile = join(work, 'argv.json');
  const host = await startHost({
    plugins: [builtinPlugin('supervisor')],
    config: {
      app: {
        enabled: true,
        process_name: 'App',
        command: ['node', '-e', SCRIPT, '--', '--api-key=ARGSECRET-1', '--password', 'ARGSECRET-2'],
        env: { GREETING: 'ENVLEAK-5', ARGV_FILE: argvFile },
        log_file: 'logs/app.log',
      },
    },
  });
  t.teardown(() => host.stop());
  const socket = await openSocket(host.url, '/ws/logs?process_name=App&format=json');
  t.teardown(() => socket.close());

  // The process got the real values.
  await eventually(
    () => {
      try {
        return readFileSync(argvFile, 'utf8').includes('ARGSECRET-2');
      } catch {
        return false;
      }
    },
    { what: 'the process wrote its arguments' },
  );
  t.deepEqual(JSON.parse(readFileSync(argvFile, 'utf8')), [
    '--api-key=ARGSECRET-1',
    '--password',
    'ARGSECRET-2',
  ]);

  const config = await request(host.url, '/config');
  t.deepEqual(config.body.app.command.slice(4), [
    '--api-key=[REDACTED]',
    '--password',
    '[REDACTED]',
  ]);
  const processes = await request(host.url, '/process/processes');
  const block = await request(host.url, '/config?process_name=App');
  for (const answer of [config, processes, block])
    t.false(answer.text.includes('ARGSECRET'), answer.text);

  const frame = await socket.next((message) => message.includes('hello'));
  t.regex(frame, /hello \[REDACTED\] \[REDACTED\]/);
  t.false(frame.includes('ENVLEAK') || frame.includes('ARGSECRET'), frame);
  const logs = await request(host.url, '/logs?process_name=App');
  t.regex(logs.text, /hello \[REDACTED\]/);
  t.false(logs.text.includes('ENVLEAK') || logs.text.includes('ARGSECRET'));
  const file = readFileSync(join(host.dataDir, 'logs', 'app.log'), 'utf8');
  t.regex(file, /hello \[REDACTED\]/);
  t.false(file.includes('ENVLEAK') || file.includes('ARGSECRET'));

  // Round trips: the command as shown, posted back (per process and globally), keeps the secrets.
  const scoped = await request(host.url, '/config', {
    body: { process_name: 'App', updates: { command: config.body.app.command }, persist: true },
  });
  t.is(scoped.status, 200, scoped.text);
  const global = await request(host.url, '/config', {
    body: { updates: { app: { ...config.body.app, description: 'edited' } }, persist: true },
  });
  t.is(global.status, 200, global.text);
  const onDisk = JSON.parse(readFileSync(host.configPath ?? '', 'utf8')) as {
    app: { command: string[]; description: string };
  };
  t.is(onDisk.app.description, 'edited');
  t.deepEqual(onDisk.app.command.slice(4), ['--api-key=ARGSECRET-1', '--password', 'ARGSECRET-2']);
});
