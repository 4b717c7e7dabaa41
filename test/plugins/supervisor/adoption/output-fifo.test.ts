/** Output through FIFOs: no EPIPE while nobody reads, and a later reader gets it all, in order. */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import {
  childOutput,
  OutputFollower,
} from '../../../../plugins/supervisor/adoption/output-fifo.js';
import { eventually } from '../../../helpers/eventually.js';
import { isAlive } from '../support/processes.js';

const TEN_MIB = 10 * 1024 * 1024;

test('a child writing 10 MiB while no host reads blocks, then drains to the next reader', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'adopt-fifo-'));
  const output = await childOutput(dir);
  t.true(typeof output.stdio[1] === 'number', 'FIFOs, not pipes');
  // 10 MiB of numbered lines, then a last line: exits 0 only when every write succeeded.
  const script = `
    const line = (n) => String(n).padStart(9, '0') + 'x'.repeat(90) + '\\n';
    let n = 0, written = 0;
    const fs = require('fs');
    while (written < ${TEN_MIB}) { const l = line(n++); fs.writeSync(1, l); written += l.length; }
    fs.writeSync(1, 'done ' + n + '\\n');`;
  const child = spawn(process.execPath, ['-e', script], { stdio: output.stdio, detached: true });
  let firstHost = 0;
  output.follow(child, (chunk) => (firstHost += chunk.length));
  const fifos = output.spawned(child.pid);
  t.not(fifos, null);
  // The first host goes away at once (as after SIGKILL): nothing reads any more.
  output.detach();
  let exitCode = null as number | null;
  child.once('exit', (code) => (exitCode = code));
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  t.true(isAlive(child.pid as number), 'blocked on the full FIFO, not killed by SIGPIPE');
  t.is(exitCode, null);

  const chunks: Buffer[] = [];
  const follower = new OutputFollower(fifos as NonNullable<typeof fifos>, (chunk) =>
    chunks.push(chunk),
  );
  await follower.ended();
  await eventually(() => exitCode !== null, { what: 'the child to finish', timeoutMs: 30_000 });
  t.is(exitCode, 0, 'no write failed');
  const text = Buffer.concat(chunks).toString('latin1');
  const lines = text.split('\n').filter((line) => line !== '');
  const last = lines.at(-1) as string;
  t.regex(last, /^done \d+$/);
  const total = Number(last.split(' ')[1]);
  // The first reader may have taken the start before it went away: the rest follows in order.
  const numbers = lines.slice(0, -1).map((line) => Number(line.slice(0, 9)));
  const first = numbers[0] as number;
  t.is(numbers.length, total - first, 'no line lost or repeated after the first reader left');
  t.true(
    numbers.every((value, index) => value === first + index),
    'in order',
  );
  t.is(firstHost, first * 100, 'the first reader took whole lines only');
});
