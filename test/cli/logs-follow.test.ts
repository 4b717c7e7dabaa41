/**
 * `stackd logs -f`: across a host restart every line the process wrote while the client was
 * following is printed exactly once, in order (the cursor of GET /logs carries it over); while
 * connected, the frames' own cursors keep it, with no request per frame.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../helpers/eventually.js';
import { freePort } from '../helpers/ports.js';
import { startHost, tempDir } from '../helpers/start-host.js';
import { clientEnv, counterBlock, spawnClient } from './run-client.js';

test('logs -f reconnects across a host restart without losing or repeating a line', async (t) => {
  t.timeout(240_000);
  const port = await freePort();
  const dataDir = tempDir('stackd-cli-follow-');
  const logFile = join(dataDir, 'counter.log');
  const options = {
    dataDir,
    config: { counter: counterBlock('Counter', logFile, 20) },
    extraArgs: ['--port', String(port)],
    // Two boots on a loaded 2-core machine: the helper's 20 s default was not always enough.
    bootTimeoutMs: 60_000,
  };
  let host = await startHost(options);
  const client = spawnClient(['logs', 'Counter', '-f', '-n', '0'], { env: clientEnv(host.url) });
  let stdout = '';
  let stderr = '';
  client.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  client.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const printed = (): string[] => stdout.split('\n').filter((line) => line !== '');
  try {
    await eventually(() => printed().length >= 20, { timeoutMs: 30_000, what: 'lines before' });
    await host.stop();
    host = await startHost(options);
    const pids = (): Set<string | undefined> =>
      new Set(printed().map((line) => line.split('-')[0]));
    await eventually(() => pids().size >= 2 && printed().length >= 60, {
      timeoutMs: 60_000,
      what: `lines after the restart (stderr: ${stderr})`,
    });
    t.regex(stderr, /lost, retrying/);
    t.regex(stderr, /reconnected/);
    // Stop the writer, then the client must have printed the file's lines up to its end.
    await host.stop();
    const fileLines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    const first = fileLines.indexOf(printed()[0] ?? '');
    t.true(first >= 0, 'the first printed line is in the file');
    await eventually(() => printed().length === fileLines.length - first, {
      timeoutMs: 10_000,
      what: 'the client to catch up',
    }).catch(() => undefined);
    t.deepEqual(printed(), fileLines.slice(first, first + printed().length));
    t.is(new Set(printed()).size, printed().length, 'no line repeated');
  } finally {
    client.kill('SIGTERM');
    await host.stop().catch(() => undefined);
  }
});

/** GET /logs requests the host has answered so far (its own request counter). */
async function logReads(url: string): Promise<number> {
  const response = await fetch(`${url}/metrics/prometheus`);
  const text = await response.text();
  let total = 0;
  for (const line of text.split('\n'))
    if (line.startsWith('stackd_http_requests_total{') && line.includes('route="/logs"'))
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  return total;
}

test('logs -f prints the frames themselves: no GET /logs per frame, every line once', async (t) => {
  t.timeout(120_000);
  const dataDir = tempDir('stackd-cli-frames-');
  const logFile = join(dataDir, 'counter.log');
  const host = await startHost({
    dataDir,
    config: { counter: counterBlock('Counter', logFile, 10) },
    bootTimeoutMs: 60_000,
  });
  const client = spawnClient(['logs', 'Counter', '-f', '-n', '0'], { env: clientEnv(host.url) });
  let stdout = '';
  client.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  // Complete lines only: a pipe read may end inside one.
  const printed = (): string[] =>
    stdout
      .slice(0, stdout.lastIndexOf('\n') + 1)
      .split('\n')
      .filter((line) => line !== '');
  try {
    await eventually(() => printed().length >= 20, { timeoutMs: 30_000, what: 'first lines' });
    const readsBefore = await logReads(host.url);
    const linesBefore = printed().length;
    await eventually(() => printed().length >= linesBefore + 200, {
      timeoutMs: 60_000,
      what: '200 more lines',
    });
    const reads = (await logReads(host.url)) - readsBefore;
    // 200 lines at one line per 10 ms are about as many frames; a dropped frame costs one read.
    t.true(reads <= 3, `${reads} GET /logs while 200 lines were followed`);
    const fileLines = readFileSync(logFile, 'utf8').split('\n');
    const first = fileLines.indexOf(printed()[0] ?? '');
    t.true(first >= 0, 'the first printed line is in the file');
    t.deepEqual(printed(), fileLines.slice(first, first + printed().length));
  } finally {
    client.kill('SIGTERM');
    await host.stop().catch(() => undefined);
  }
});
