import test from 'ava';
import type { ProcessState } from '../../../../sdk/index.js';
import { listProcessEntries } from '../../../../sdk/index.js';
import {
  listEntry,
  repoUrlOf,
  statusBody,
  statusFrame,
  versionOf,
} from '../../../../plugins/supervisor/views/process-view.js';
import { parseInterval } from '../../../../plugins/supervisor/streams/status-stream.js';
import { stoppedState } from '../../../../plugins/supervisor/runtime/state-record.js';

test('a list entry carries every contract field, with secrets redacted', (t) => {
  const [entry] = listProcessEntries({
    riven: {
      enabled: true,
      process_name: 'Riven',
      command: ['run'],
      api_key: 'abc123',
      env: { DB_PASSWORD: 'hunter2', MODE: 'x' },
      wait_for_url: ['http://user:pw@127.0.0.1:1/x'],
      release_version: 'v1.2.3',
      repo_owner: 'rivenmedia',
      repo_name: 'riven',
      sponsorship_url: 'https://sponsor.example/riven',
    },
  });
  if (entry === undefined) return t.fail();
  const view = listEntry(entry, stoppedState('Riven'));
  t.like(view, {
    name: 'riven',
    process_name: 'Riven',
    enabled: true,
    version: 'v1.2.3',
    key: 'riven',
    config_key: 'riven',
    repo_url: 'https://github.com/rivenmedia/riven',
    sponsorship_url: 'https://sponsor.example/riven',
    status: 'stopped',
    pid: null,
    restarts: 0,
  });
  const text = JSON.stringify(view.config);
  t.false(text.includes('abc123'));
  t.false(text.includes('hunter2'));
  t.false(text.includes(':pw@'));
  t.like(view.config, { env: { MODE: 'x' }, command: ['run'] });
  t.is(entry.block.api_key, 'abc123', 'the document itself is untouched');
});

test('version and repo_url fall back to ""', (t) => {
  t.is(versionOf({}), '');
  t.is(versionOf({ pinned_version: '2.0' }), '2.0');
  t.is(repoUrlOf({ repo_owner: 'a' }), '');
  t.is(repoUrlOf({ repo_url: 'https://rclone.org' }), 'https://rclone.org');
});

test('service-status bodies leave out what does not apply', (t) => {
  t.deepEqual(statusBody(stoppedState('A')), { process_name: 'A', status: 'stopped', restarts: 0 });
  const running: ProcessState = {
    ...stoppedState('B'),
    status: 'running',
    pid: 42,
    started_at: Date.now() - 5000,
    restarts: 2,
  };
  const body = statusBody(running);
  t.like(body, { process_name: 'B', status: 'running', pid: 42, restarts: 2 });
  t.true((body.uptime_s ?? 0) >= 4.9);
  t.deepEqual(
    statusBody({ ...stoppedState('C'), status: 'crashed', exit_code: 1, reason: 'boom' }),
    {
      process_name: 'C',
      status: 'crashed',
      exit_code: 1,
      restarts: 0,
      reason: 'boom',
    },
  );
});

test('a status frame lists running names and every process', (t) => {
  const frame = statusFrame(
    [{ ...stoppedState('A'), status: 'running', pid: 7, started_at: 1000 }, stoppedState('B')],
    3000,
  );
  t.deepEqual(frame, {
    type: 'status',
    running: ['A'],
    processes: [
      { process_name: 'A', status: 'running', pid: 7, restarts: 0, uptime_s: 2 },
      { process_name: 'B', status: 'stopped', pid: null, restarts: 0 },
    ],
  });
});

test('the /ws/status interval is clamped to 0.5–10 s; unparsable means 2', (t) => {
  t.is(parseInterval(undefined), 2);
  t.is(parseInterval('abc'), 2);
  t.is(parseInterval(''), 2);
  t.is(parseInterval('0.1'), 0.5);
  t.is(parseInterval('3.5'), 3.5);
  t.is(parseInterval('99'), 10);
});
