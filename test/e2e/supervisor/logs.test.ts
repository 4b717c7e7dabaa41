import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { openSocket, request } from '../../helpers/http.js';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';
import { startSupervisor } from './support.js';
import {
  PARTS_PLUGIN,
  PLANTED_SECRET,
  partsConfig,
} from '../../fixtures/plugins/supervisor-parts/host-setup.js';

/** The chatter processes print their banner on stdout and stderr (two pipes, any order). */
async function waitForBanners(host: RunningHostProcess): Promise<void> {
  for (const name of ['Chatter', 'Quiet']) {
    await eventually(
      async () => {
        const { body } = await logs(host, `process_name=${name}`);
        return body.chunk.includes('upstream') && body.chunk.includes('Authorization');
      },
      { what: `${name}'s start banner` },
    );
  }
}

async function withHost(run: (host: RunningHostProcess) => Promise<void>): Promise<void> {
  const host = await startHost({ plugins: [PARTS_PLUGIN], config: partsConfig() });
  try {
    await waitForBanners(host);
    await run(host);
  } finally {
    await host.stop();
  }
}

interface LogChunkWire {
  process_name: string;
  cursor: number;
  chunk: string;
  reset: boolean;
  log: string;
  size: number;
  file_id: string | null;
  code?: string;
  field?: string;
}

function logs(host: RunningHostProcess, query: string) {
  return request<LogChunkWire>(host.url, `/logs?${query}`);
}

function lineList(host: RunningHostProcess, query: string) {
  return request<string[]>(host.url, `/logs?${query}`);
}

function say(host: RunningHostProcess, processName: string, text: string, repeat = 1) {
  return request(host.url, '/test-parts/say', {
    body: { process_name: processName, text, repeat },
  });
}

test('GET /logs: first read, incremental read, planted secret redacted', async (t) => {
  await withHost(async (host) => {
    const first = await logs(host, 'process_name=Chatter');
    t.is(first.status, 200);
    t.is(first.body.process_name, 'Chatter');
    t.true(first.body.reset);
    t.is(first.body.log, first.body.chunk);
    t.is(first.body.cursor, first.body.size);
    t.true(first.body.chunk.includes('chatter started'));
    t.true(first.body.chunk.includes('api_key=[REDACTED]'));
    t.false(first.text.includes(PLANTED_SECRET));

    t.is((await say(host, 'Chatter', 'hello incremental')).status, 200);
    const next = await eventually(async () => {
      const response = await logs(
        host,
        `process_name=chatter&cursor=${first.body.cursor}&file_id=${first.body.file_id}`,
      );
      return response.body.chunk !== '' ? response : undefined;
    });
    t.is(next.body.chunk, 'hello incremental\n');
    t.false(next.body.reset);
    t.is(next.body.process_name, 'Chatter', 'a forgiving spelling resolves to the process name');
  });
});

test('GET /logs: lines written into the log file by someone else are redacted too', async (t) => {
  await withHost(async (host) => {
    // stackd redacts what it writes and skips scanning it again; a line it did not write (an
    // edit by hand, another program given the same file) must still be scanned on the way out.
    appendFileSync(join(host.dataDir, 'logs', 'chatter.log'), `by hand token=${PLANTED_SECRET}\n`);
    const tail = await logs(host, 'process_name=Chatter');
    t.true(tail.body.chunk.includes('chatter started'));
    t.true(tail.body.chunk.endsWith('by hand token=[REDACTED]\n'), tail.body.chunk.slice(-200));
    t.false(tail.text.includes(PLANTED_SECRET));
    // The process's next line: the writer finds the file longer than it left it.
    await say(host, 'Chatter', 'after the hand edit');
    const after = await eventually(async () => {
      const response = await logs(host, 'process_name=Chatter');
      return response.body.chunk.includes('after the hand edit') ? response : undefined;
    });
    t.true(after.body.chunk.includes('by hand token=[REDACTED]\n'));
    t.false(after.text.includes(PLANTED_SECRET));
  });
});

test('GET /logs across a rotation: reset with the new file, old files kept', async (t) => {
  await withHost(async (host) => {
    const first = await logs(host, 'process_name=Quiet');
    // 80 lines of 64 bytes in one write: past log_max_bytes (4096), so the file rotates.
    await say(host, 'Quiet', `rotation line ${'x'.repeat(49)}`, 80);
    await say(host, 'Quiet', 'after rotation');
    const after = await eventually(async () => {
      const response = await logs(
        host,
        `process_name=Quiet&cursor=${first.body.cursor}&file_id=${first.body.file_id}`,
      );
      return response.body.chunk.includes('after rotation') ? response : undefined;
    });
    t.true(after.body.reset);
    t.not(after.body.file_id, first.body.file_id);
    t.true(after.body.chunk.endsWith('after rotation\n'));
    t.is(after.body.cursor, after.body.size);
    t.true(existsSync(join(host.dataDir, 'logs', 'quiet.log.1')));
    t.false(existsSync(join(host.dataDir, 'logs', 'quiet.log.3')));
  });
});

test('GET /logs errors and the earlier-generation line list', async (t) => {
  await withHost(async (host) => {
    const unknown = await logs(host, 'process_name=Nobody');
    t.is(unknown.status, 404);
    t.is(unknown.body.code, 'PROCESS_NOT_FOUND');

    const neither = await logs(host, '');
    t.is(neither.status, 422);
    t.is(neither.body.field, 'process_name');

    const tooSmall = await logs(host, 'process_name=Chatter&tail_bytes=0');
    t.is(tooSmall.status, 422);
    t.is(tooSmall.body.field, 'tail_bytes');

    const noFile = await logs(host, 'process_name=Idle%20One');
    t.is(noFile.status, 200);
    t.deepEqual(
      [noFile.body.chunk, noFile.body.reset, noFile.body.cursor, noFile.body.file_id],
      ['', true, 0, null],
    );

    await say(host, 'Chatter', 'ERROR - something broke');
    await say(host, 'Chatter', 'INFO - fine again');
    const lines = await eventually(async () => {
      const response = await lineList(host, 'name=Chatter&lines=2');
      return response.body.at(-1) === 'INFO - fine again' ? response : undefined;
    });
    t.deepEqual(lines.body, ['ERROR - something broke', 'INFO - fine again']);
    const errors = await lineList(host, 'name=Chatter&lines=10&level=error');
    t.deepEqual(errors.body, ['ERROR - something broke']);

    // Small tails are accepted: the last 400 bytes hold whole lines only.
    const small = await logs(host, 'process_name=Chatter&tail_bytes=400');
    t.is(small.status, 200, small.text);
    t.true(small.body.chunk.length <= 400);
    t.true(small.body.chunk.endsWith('INFO - fine again\n'));
    // `lines` works with the current `process_name` too: the last two lines, cursor at the end.
    const lastTwo = await logs(host, 'process_name=Chatter&lines=2');
    t.is(lastTwo.status, 200, lastTwo.text);
    t.is(lastTwo.body.chunk, 'ERROR - something broke\nINFO - fine again\n');
    t.is(lastTwo.body.cursor, small.body.cursor);
    t.true(lastTwo.body.reset);

    const openapi = await request<{ paths: Record<string, unknown> }>(host.url, '/openapi.json');
    t.regex(JSON.stringify(openapi.body.paths['/logs']), /Earlier generation/);
  });
});

test('/ws/logs: one frame per batch, filtered by process, secrets redacted', async (t) => {
  await withHost(async (host) => {
    const chatterOnly = await openSocket(host.url, '/ws/logs?process_name=Chatter&format=json');
    const everything = await openSocket(host.url, '/ws/logs?format=json');
    const quietOnly = await openSocket(host.url, '/ws/logs?process_name=quiet&format=json');
    const dumb = await openSocket(host.url, '/ws/logs');

    await say(host, 'Chatter', `batch line token=${PLANTED_SECRET}`, 3);
    const frame = JSON.parse(await chatterOnly.next((message) => message.includes('batch line')));
    const { file_id: fileId, previous_cursor: previous, cursor, ...batch } = frame;
    t.deepEqual(batch, {
      type: 'logs',
      process_name: 'Chatter',
      lines: [
        'batch line token=[REDACTED]',
        'batch line token=[REDACTED]',
        'batch line token=[REDACTED]',
      ],
    });
    // The frame's cursors are GET /logs's: reading from previous_cursor gives exactly its lines.
    const read = await logs(
      host,
      `process_name=Chatter&tail_bytes=65536&cursor=${previous}&file_id=${encodeURIComponent(fileId)}`,
    );
    t.like(read.body, { reset: false, file_id: fileId, cursor });
    t.is(read.body.chunk, `${frame.lines.join('\n')}\n`);
    await everything.next((message) => message.includes('batch line'));
    // The default is DUMB's text format: lines its dashboard parses as time, level, process.
    const text = await dumb.next((message) => message.includes('batch line'));
    const lines = text.split('\n');
    t.is(lines.length, 3);
    for (const line of lines)
      t.regex(
        line,
        /^\d{4}-\d\d-\d\dT[\d:.]+Z - INFO - Chatter subprocess: batch line token=\[REDACTED\]$/,
      );

    // Quiet's frame comes after Chatter's; by then the Quiet-only socket must not have Chatter's.
    await say(host, 'Quiet', 'quiet line');
    const quietFrame = JSON.parse(
      await quietOnly.next((message) => message.includes('quiet line')),
    );
    t.is(quietFrame.process_name, 'Quiet');
    t.false(quietOnly.messages.some((message) => message.includes('batch line')));
    for (const socket of [chatterOnly, everything, quietOnly, dumb])
      t.false(socket.messages.some((message) => message.includes(PLANTED_SECRET)));

    chatterOnly.socket.send('ping');
    t.is(await chatterOnly.next((message) => message === 'pong'), 'pong');
    for (const socket of [chatterOnly, everything, quietOnly, dumb]) socket.close();
  });
});

test("the host's own log: under the API's name and the dashboard's project name, DUMB's line format", async (t) => {
  const host = await startSupervisor({});
  t.teardown(() => host.stop());
  for (const name of ['DMB', 'stackd API']) {
    const answer = await request<{ chunk: string; process_name: string }>(
      host.url,
      `/api/logs?process_name=${encodeURIComponent(name)}`,
    );
    t.is(answer.status, 200, name);
    t.regex(
      answer.body.chunk,
      /^\d{4}-\d\d-\d\dT[\d:.]+Z - INFO - \[core\] configuration: /m,
      name,
    );
  }
});
