import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runWaits, WaitTimeoutError } from '../../../../plugins/supervisor/waits/wait-runner.js';
import { parseWaits } from '../../../../plugins/supervisor/waits/wait-specs.js';
import { probeMount } from '../../../../plugins/supervisor/waits/probes.js';
import { eventually } from '../../../helpers/eventually.js';

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

test('a URL wait holds until the server answers 2xx (and has the JSON path)', async (t) => {
  let answers = 0;
  const server = createServer((_request, response) => {
    answers += 1;
    if (answers < 3) response.writeHead(503).end();
    else
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"app":{"ready":true}}');
  });
  const port = await listen(server);
  t.teardown(() => server.close());
  const seen: string[] = [];
  await runWaits(
    parseWaits(
      {
        wait_for_url: {
          url: `http://127.0.0.1:${port}/ping?apikey=x`,
          expected_json_path: 'app.ready',
        },
      },
      '/d',
    ),
    {
      signal: new AbortController().signal,
      budgetMs: 10_000,
      onWaiting: (what) => seen.push(what),
      firstPauseMs: 10,
    },
  );
  t.is(answers, 3);
  t.deepEqual(seen, [`http://127.0.0.1:${port}/ping`]);
});

test('a TCP wait holds until the port accepts', async (t) => {
  const server = createServer();
  const port = await listen(server);
  server.close();
  const refusals: string[] = [];
  let done = false;
  const waiting = runWaits(parseWaits({ wait_for_tcp: { port } }, '/d'), {
    signal: new AbortController().signal,
    budgetMs: 10_000,
    onWaiting: () => undefined,
    onNotReady: (_what, detail) => refusals.push(detail),
    firstPauseMs: 20,
  }).then(() => (done = true));
  await eventually(() => refusals.length >= 2, { what: 'two refused probes' });
  t.false(done, 'nothing listens yet');
  t.regex(refusals[0] ?? '', /ECONNREFUSED/);
  const again = createServer();
  again.listen(port, '127.0.0.1');
  t.teardown(() => again.close());
  await waiting;
  t.true(done);
});

test('the shared budget runs out with a reason; an abort stops waiting at once', async (t) => {
  const error = await t.throwsAsync(
    runWaits(parseWaits({ wait_for_url: 'http://127.0.0.1:1/x' }, '/d'), {
      signal: new AbortController().signal,
      budgetMs: 200,
      onWaiting: () => undefined,
      firstPauseMs: 20,
    }),
    { instanceOf: WaitTimeoutError },
  );
  t.regex(error.message, /^timed out after 0.2 s waiting for http:\/\/127.0.0.1:1\/x/);
  const controller = new AbortController();
  const waiting = runWaits(parseWaits({ wait_for_dir: '/nonexistent/x' }, '/d'), {
    signal: controller.signal,
    budgetMs: 60_000,
    onWaiting: () => controller.abort(new Error('stopped')),
  });
  await t.throwsAsync(waiting, { message: 'stopped' });
});

test('the root is a mount point; a plain directory is not', async (t) => {
  t.true((await probeMount('/')).ready);
  const result = await probeMount('/proc/self');
  t.false(result.ready);
});
