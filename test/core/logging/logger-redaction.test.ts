import test from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HostLogFile } from '../../../core/logging/host-log-file.js';
import { LogSink } from '../../../core/logging/logger.js';

const URL_WITH_KEY = 'http://overseerr:5055/api/v1/request?apikey=s3cr3tvalue99';
const BEARER = 'Authorization: Bearer abcdef0123456789abcdef';

test('a stderr line is redacted: query secrets, bearer tokens and secrets in fields', (t) => {
  const lines: string[] = [];
  const sink = new LogSink('info', (line) => lines.push(line));
  sink.emit('warn', 'sync', `request failed: ${URL_WITH_KEY}`, undefined);
  sink.emit('info', 'ai', 'provider call', { header: BEARER });
  sink.emit('info', 'core', 'plain line with nothing to hide', undefined);
  t.is(lines.length, 3);
  t.false(lines.join('').includes('s3cr3tvalue99'));
  t.false(lines.join('').includes('abcdef0123456789abcdef'));
  t.regex(lines[0] ?? '', /apikey=\[REDACTED\]/);
  t.regex(lines[2] ?? '', /INFO {2}\[core\] plain line with nothing to hide\n$/);
});

test('subscribers still see the record as emitted (in memory, never written)', (t) => {
  const sink = new LogSink('info', () => undefined);
  const seen: string[] = [];
  sink.subscribe((record) => seen.push(record.message));
  sink.emit('warn', 'sync', `request failed: ${URL_WITH_KEY}`, undefined);
  t.deepEqual(seen, [`request failed: ${URL_WITH_KEY}`]);
});

test('logs/stackd.log holds the redacted line, in DUMB format', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'stackd-host-log-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const sink = new LogSink('info', () => undefined);
  const file = new HostLogFile(join(dir, 'logs', 'stackd.log'), sink);
  sink.emit('error', 'sync', `request failed: ${URL_WITH_KEY}`, { auth: BEARER });
  sink.emit('info', 'core', 'started', undefined);
  file.close();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const text = readFileSync(join(dir, 'logs', 'stackd.log'), 'utf8');
  t.false(text.includes('s3cr3tvalue99'));
  t.false(text.includes('abcdef0123456789abcdef'));
  t.regex(text, / - ERROR - \[sync\] request failed: .*apikey=\[REDACTED\]/);
  t.regex(text, / - INFO - \[core\] started\n$/);
});
