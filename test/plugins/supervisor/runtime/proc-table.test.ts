import test from 'ava';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  liveTrees,
  parseStatLine,
  readProcTable,
  readStatNumbers,
  statFields,
  type ProcInfo,
} from '../../../../plugins/supervisor/runtime/proc-table.js';
import { tempDir } from '../../../helpers/start-host.js';

test('a stat line parses even when the command name holds spaces and parentheses', (t) => {
  t.deepEqual(
    parseStatLine(
      '4242 (my (odd) prog) S 17 4242 4242 0 -1 4194560 0 0 0 0 1 2 0 0 20 0 1 0 987654 123 4',
    ),
    {
      pid: 4242,
      ppid: 17,
      pgrp: 4242,
      state: 'S',
      startTicks: '987654',
    },
  );
  t.is(parseStatLine('garbage'), undefined);
});

test('stat numbers are read in place, as statFields splits them, negative ones too', (t) => {
  const line =
    '4242 (my (odd) 1 2) S 17 4242 4242 0 -1 4194560 5 0 0 0 31 12 7 3 20 -5 1 0 987654 123 456 x\n';
  const file = join(tempDir('stackd-stat-'), 'stat');
  writeFileSync(file, line);
  const fd = openSync(file, 'r');
  t.teardown(() => closeSync(fd));
  const fields = new Float64Array(22);
  readStatNumbers(fd, fields);
  const split = statFields(line.trim()) ?? [];
  for (let index = 1; index < fields.length; index += 1)
    t.is(fields[index], Number(split[index]), `field ${index}`);
  t.is(fields[16], -5);
  // Read again through the same descriptor (from offset 0): the same numbers.
  readStatNumbers(fd, fields);
  t.is(fields[19], 987654);
  t.throws(() => readStatNumbers(fd, new Float64Array(40)), { message: /short stat line/ });
});

test('liveTrees walks descendants and group members and leaves zombies out', (t) => {
  const table: ProcInfo[] = [
    { pid: 10, ppid: 1, pgrp: 10, state: 'S', startTicks: '1' },
    { pid: 11, ppid: 10, pgrp: 10, state: 'S', startTicks: '1' },
    { pid: 12, ppid: 11, pgrp: 12, state: 'R', startTicks: '1' }, // its own group, still a descendant
    { pid: 13, ppid: 1, pgrp: 10, state: 'S', startTicks: '1' }, // orphaned group member
    { pid: 14, ppid: 10, pgrp: 10, state: 'Z', startTicks: '1' }, // exited
    { pid: 20, ppid: 1, pgrp: 20, state: 'S', startTicks: '1' }, // unrelated
  ];
  t.deepEqual(
    liveTrees(table, [10, 11, 20, 14, 99]),
    new Map([
      [10, [10, 11, 12, 13]],
      [11, [11, 12]],
      [20, [20]],
      [14, []],
      [99, []],
    ]),
  );
});

test('the real table holds this test process with its parent', async (t) => {
  const table = await readProcTable();
  t.not(table, null);
  const self = table?.find((row) => row.pid === process.pid);
  t.is(self?.ppid, process.ppid);
});
