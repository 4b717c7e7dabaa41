import test from 'ava';
import { LogSink } from '../../../core/logging/logger.js';
import { storageFailureKind } from '../../../core/storage/storage-failure.js';

test('a repeated warning is written once per minute; other text and info lines are not held', (t) => {
  const lines: string[] = [];
  const sink = new LogSink('info', (line) => lines.push(line));
  for (let index = 0; index < 400; index += 1)
    sink.emit('warn', 'supervisor', 'ENOSPC on x', undefined);
  sink.emit('warn', 'supervisor', 'another cause', undefined);
  sink.emit('info', 'supervisor', 'same info', undefined);
  sink.emit('info', 'supervisor', 'same info', undefined);
  t.is(lines.filter((line) => line.includes('ENOSPC on x')).length, 1);
  t.is(lines.filter((line) => line.includes('another cause')).length, 1);
  t.is(lines.filter((line) => line.includes('same info')).length, 2);
});

test('storage failures are told apart from other errors', (t) => {
  const errno = (code: string) => Object.assign(new Error(code), { code });
  t.is(storageFailureKind(errno('ENOSPC')), 'full');
  t.is(storageFailureKind(errno('EDQUOT')), 'full');
  t.is(storageFailureKind(errno('EROFS')), 'unwritable');
  t.is(storageFailureKind(new Error('database or disk is full')), 'full');
  t.is(storageFailureKind(new Error('disk I/O error')), 'io');
  t.is(storageFailureKind(new Error('wrap', { cause: errno('ENOSPC') })), 'full');
  t.is(storageFailureKind(errno('ENOENT')), null);
  t.is(storageFailureKind('text'), null);
});

test('when the window closes, the count of swallowed repeats is written without a next one', async (t) => {
  const lines: string[] = [];
  const sink = new LogSink('info', (line) => lines.push(line), 300);
  for (let index = 0; index < 4; index += 1)
    sink.emit('warn', 'supervisor', 'Flaky crashed', undefined);
  t.is(lines.length, 1);
  await new Promise((resolve) => setTimeout(resolve, 600));
  t.is(lines.length, 2);
  t.regex(lines[1] ?? '', /WARN .*Flaky crashed \(repeated 3 more times in the last minute\)$/m);
  // The window starts afresh: the next one is written at once, with no count.
  sink.emit('warn', 'supervisor', 'Flaky crashed', undefined);
  t.is(lines.length, 3);
  t.notRegex(lines[2] ?? '', /repeated/);
});
