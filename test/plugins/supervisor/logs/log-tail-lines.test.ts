import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { readLastLines } from '../../../../plugins/supervisor/logs/log-tail-lines.js';

function logFile(content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'stackd-tail-')), 'app.log');
  writeFileSync(file, content);
  return file;
}

test('the last N complete lines, oldest first, redacted', async (t) => {
  const file = logFile('one\ntwo\npassword=hunter2\nfour\npartial');
  t.deepEqual(await readLastLines(file, { lines: 2 }), ['password=[REDACTED]', 'four']);
  t.deepEqual(await readLastLines(file, { lines: 100 }), [
    'one',
    'two',
    'password=[REDACTED]',
    'four',
  ]);
});

test('the level filter is a case-insensitive substring, counted after filtering', async (t) => {
  const lines = Array.from({ length: 5000 }, (_, index) =>
    index % 1000 === 0 ? `${index} - ERROR - broke` : `${index} - INFO - fine`,
  );
  const file = logFile(`${lines.join('\n')}\n`);
  t.deepEqual(await readLastLines(file, { lines: 3, level: 'error' }), [
    '2000 - ERROR - broke',
    '3000 - ERROR - broke',
    '4000 - ERROR - broke',
  ]);
});

test('a missing file gives no lines', async (t) => {
  t.deepEqual(await readLastLines(join(tmpdir(), 'nope-stackd', 'x.log'), { lines: 5 }), []);
  t.deepEqual(await readLastLines(null, { lines: 5 }), []);
});
