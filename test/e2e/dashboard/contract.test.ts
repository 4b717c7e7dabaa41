/**
 * The dashboard's calls (dashboard-calls.ts) replayed against a real host with authentication
 * on and the contract stack of `npm run check:dashboard`: each answers the status the dashboard
 * treats as success and carries every field it reads. Its WebSocket formats are checked too.
 */
import test from 'ava';
import { join } from 'node:path';
import type { RunningHostProcess } from '../../helpers/start-host.js';
import { openSocket, request } from '../../helpers/http.js';
import { eventually } from '../../helpers/eventually.js';
import { startCheckStack } from '../../../tools/check-dashboard/stack.js';
import { DASHBOARD_CALLS } from './dashboard-calls.js';

let host: RunningHostProcess;
let token = '';

test.before(async () => {
  host = await startCheckStack();
  const setup = await request(host.url, '/api/auth/setup', {
    body: { username: 'admin', password: 'dashboard-contract-1' },
  });
  token = setup.body.access_token as string;
  // The process list and its statuses settle once every process ran its start check.
  await eventually(async () => {
    const answer = await request(host.url, '/api/process/service-status?process_name=Seerr', {
      token,
    });
    return answer.body.status === 'running';
  });
});

test.after.always(async () => {
  await host?.stop();
});

/** The missing dot paths of `reads` in `body`. */
function missing(body: unknown, reads: readonly string[]): string[] {
  const absent: string[] = [];
  for (const read of reads) {
    let value: unknown = body;
    for (const part of read.split('.')) {
      const isList = part.endsWith('[]');
      const key = isList ? part.slice(0, -2) : part;
      value =
        value !== null && typeof value === 'object'
          ? (value as Record<string, unknown>)[key]
          : undefined;
      if (isList) value = Array.isArray(value) ? value[0] : undefined;
      if (value === undefined) break;
    }
    if (value === undefined) absent.push(read);
  }
  return absent;
}

for (const call of DASHBOARD_CALLS) {
  test(`${call.page}: ${call.method} ${call.path}`, async (t) => {
    const answer = await request(host.url, call.path, {
      method: call.method,
      token,
      ...(call.body === undefined
        ? {}
        : {
            body: JSON.parse(
              JSON.stringify(call.body).replaceAll('{library}', join(host.dataDir, 'library')),
            ) as unknown,
          }),
    });
    t.is(answer.status, call.status, answer.text.slice(0, 300));
    t.deepEqual(missing(answer.body, call.reads), [], 'fields the dashboard reads');
  });
}

test('without a token the dashboard gets 401, which sends it to the login page', async (t) => {
  const answer = await request(host.url, '/api/process/processes');
  t.is(answer.status, 401);
});

test('/ws/logs without a filter: DUMB text lines of every process', async (t) => {
  const socket = await openSocket(host.url, `/ws/logs?token=${token}`);
  t.teardown(() => socket.close());
  const line = await socket.next((message) => / - [A-Z]+ - Demo Worker subprocess: /.test(message));
  t.regex(line, /^\S.* - [A-Z]+ - Demo Worker subprocess: /);
  socket.socket.send('{"type":"ping"}');
  t.is(await socket.next((message) => message === 'pong'), 'pong');
});

test('/ws/metrics as the Metrics page opens it: bootstrap, then snapshots', async (t) => {
  const socket = await openSocket(
    host.url,
    `/ws/metrics?interval=2&history=false&bootstrap=true&history_points=600&history_bucket=5&token=${token}`,
  );
  t.teardown(() => socket.close());
  const boot = JSON.parse(await socket.next()) as Record<string, unknown>;
  t.is(boot.type, 'bootstrap');
  t.deepEqual(
    missing(boot, [
      'snapshot.timestamp',
      'snapshot.system.mem.percent',
      'items',
      'series.cpu',
      'timestamps',
      'stats',
      'bucket_seconds',
    ]),
    [],
  );
  const next = JSON.parse(
    await socket.next((message) => message.includes('"type":"snapshot"')),
  ) as Record<string, unknown>;
  t.deepEqual(
    missing(next, ['data.timestamp', 'data.dumb_managed[].name', 'data.system.cpu_percent']),
    [],
  );
});

test('/ws/status: status frames', async (t) => {
  const socket = await openSocket(host.url, `/ws/status?token=${token}`);
  t.teardown(() => socket.close());
  const frame = JSON.parse(await socket.next()) as Record<string, unknown>;
  t.is(frame.type, 'status');
  t.true(Array.isArray(frame.running));
});

/**
 * Capability flags DUMB's dashboard (v1.88, `pages/` and `components/`) gates a page or panel on,
 * for features stackd has: each must be true, or the dashboard hides a working feature behind a
 * "does not expose" banner. (Flags of DUMB-only features, such as `infinidysk_*`, stay false.)
 */
const GATES_OF_FEATURES_STACKD_HAS = [
  'ai_diagnostics',
  'ai_provider_profiles',
  'seerr_sync',
  'notifications',
  'optional_only_onboarding',
  'runtime_api_log_level',
  'symlink_repair',
  'symlink_repair_async',
  'symlink_manifest_backup',
  'symlink_manifest_backup_async',
  'symlink_manifest_restore',
  'symlink_manifest_restore_async',
  'symlink_manifest_compare',
  'symlink_job_latest',
  'symlink_backup_schedule',
  'symlink_backup_manifest_list',
  'symlink_manifest_file_list',
] as const;

test('every capability the dashboard gates a feature of stackd on is true', async (t) => {
  const answer = await request(host.url, '/api/process/capabilities', { token });
  t.is(answer.status, 200, answer.text);
  const off = GATES_OF_FEATURES_STACKD_HAS.filter((flag) => answer.body[flag] !== true);
  t.deepEqual(off, [], 'flags the dashboard reads that stackd leaves off');
});
