/** FIFO pairs made ahead in batches: distinct pairs for concurrent launches, stale pairs swept. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { FifoStock } from '../../../../plugins/supervisor/adoption/fifo-stock.js';
import { tempDir } from '../../../helpers/start-host.js';

test('concurrent launches each get their own pair of FIFOs, made in few batches', async (t) => {
  const dir = join(tempDir('stackd-fifo-stock-'), 'fifos');
  const stock = new FifoStock(dir);
  const pairs = await Promise.all(Array.from({ length: 40 }, () => stock.take()));
  const paths = pairs.flatMap((pair) => (pair === null ? [] : [pair.stdout, pair.stderr]));
  t.is(paths.length, 80);
  t.is(new Set(paths).size, 80, 'no pair handed out twice');
  t.true(paths.every((path) => statSync(path).isFIFO()));
  // 40 waiting launches fit one batch: nothing beyond them was made.
  t.is(readdirSync(dir).length, 80);
  const next = await stock.take();
  t.not(next, null);
  t.false(paths.includes(next?.stdout ?? ''), 'a later launch gets a new pair');
});

test("the first batch removes pairs staged by a host that is gone, not a live host's", async (t) => {
  const dir = tempDir('stackd-fifo-stock-');
  const dead = spawnSync('true').pid;
  const live = 1; // init: always there
  for (const name of [`stage-${dead}-1.out`, `stage-${dead}-1.err`, `stage-${live}-1.out`])
    writeFileSync(join(dir, name), '');
  t.not(await new FifoStock(dir).take(), null);
  t.false(existsSync(join(dir, `stage-${dead}-1.out`)));
  t.false(existsSync(join(dir, `stage-${dead}-1.err`)));
  t.true(existsSync(join(dir, `stage-${live}-1.out`)));
});

test('where FIFOs cannot be made, take answers null (the launch uses pipes)', async (t) => {
  const parent = tempDir('stackd-fifo-stock-');
  writeFileSync(join(parent, 'file'), '');
  t.is(await new FifoStock(join(parent, 'file', 'fifos')).take(), null);
  mkdirSync(join(parent, 'ok'));
  t.not(await new FifoStock(join(parent, 'ok')).take(), null);
});
