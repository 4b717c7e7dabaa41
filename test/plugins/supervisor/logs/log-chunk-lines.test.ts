import test from 'ava';
import { lastLinesOfChunk } from '../../../../plugins/supervisor/logs/log-chunk-lines.js';
import type { LogChunk } from '../../../../plugins/supervisor/logs/log-cursor.js';

const chunk = (pieces: string[]): LogChunk => ({
  cursor: 42,
  pieces,
  reset: true,
  size: 42,
  file_id: 'f',
});

test('the last lines come from the last pieces, cut inside one piece at most', (t) => {
  const read = chunk(['a\nb\n', 'c\nd\ne\n']);
  t.deepEqual(lastLinesOfChunk(read, 1).pieces, ['e\n']);
  t.deepEqual(lastLinesOfChunk(read, 3).pieces, ['c\nd\ne\n']);
  t.deepEqual(lastLinesOfChunk(read, 4).pieces, ['b\n', 'c\nd\ne\n']);
  t.deepEqual(lastLinesOfChunk(read, 5).pieces, ['a\nb\n', 'c\nd\ne\n']);
  t.deepEqual(lastLinesOfChunk(read, 50).pieces, ['a\nb\n', 'c\nd\ne\n']);
  t.is(lastLinesOfChunk(read, 2).cursor, 42);
  t.deepEqual(lastLinesOfChunk(chunk([]), 3).pieces, []);
});
