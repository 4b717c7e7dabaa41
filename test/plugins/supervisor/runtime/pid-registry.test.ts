/** Leftovers of a crashed host are found by pid + start time and terminated; others are left alone. */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { FolderStorage } from '../../../../core/storage/plugin-storage.js';
import { PidRegistry } from '../../../../plugins/supervisor/runtime/pid-registry.js';
import { isDead, parseStatLine } from '../../../../plugins/supervisor/runtime/proc-table.js';
import { eventually } from '../../../helpers/eventually.js';
import { FIXTURES_DIR } from '../../../helpers/start-host.js';
import { ScopedLogger, LogSink } from '../../../../core/logging/logger.js';

const logger = new ScopedLogger(new LogSink('error', () => undefined), 'test');

/** Alive and not a zombie (where no init reaps orphans, dead children linger as zombies). */
async function running(pid: number): Promise<boolean> {
  try {
    const info = parseStatLine(await readFile(`/proc/${pid}/stat`, 'utf8'));
    return info !== undefined && !isDead(info);
  } catch {
    return false;
  }
}

test('a group recorded by a previous host is terminated at the next boot', async (t) => {
  const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'pids-')), 'supervisor');
  const child = spawn(process.execPath, [join(FIXTURES_DIR, 'programs', 'long-running.js')], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  const pid = child.pid as number;
  const first = new PidRegistry(storage, logger);
  first.track({
    process_name: 'Leftover',
    status: 'running',
    pid,
    exit_code: null,
    restarts: 0,
    started_at: Date.now(),
    reason: null,
  });
  await eventually(
    async () => (await storage.readJson<unknown[]>('launched-groups.json'))?.length === 1,
    { what: 'the registry on disk' },
  );

  const next = new PidRegistry(storage, logger);
  t.deepEqual(await next.reapLeftovers(), ['Leftover']);
  await eventually(async () => !(await running(pid)), { what: 'the leftover to be gone' });
  t.deepEqual(await storage.readJson('launched-groups.json'), []);
});

test('a recorded pid that now belongs to another process is never signalled', async (t) => {
  const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'pids-')), 'supervisor');
  const bystander = spawn(process.execPath, [join(FIXTURES_DIR, 'programs', 'long-running.js')], {
    detached: true,
    stdio: 'ignore',
  });
  const pid = bystander.pid as number;
  await storage.writeJsonAtomic('launched-groups.json', [
    { process_name: 'Old', pid, start_ticks: '1' },
  ]);
  try {
    t.deepEqual(await new PidRegistry(storage, logger).reapLeftovers(), []);
    t.true(await running(pid), 'the bystander lives on');
  } finally {
    process.kill(-pid, 'SIGKILL');
  }
});

test('a process that stopped is dropped from the registry', async (t) => {
  const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'pids-')), 'supervisor');
  const registry = new PidRegistry(storage, logger);
  registry.track({
    process_name: 'Self',
    status: 'running',
    pid: process.pid,
    exit_code: null,
    restarts: 0,
    started_at: Date.now(),
    reason: null,
  });
  await eventually(
    async () => (await storage.readJson<unknown[]>('launched-groups.json'))?.length === 1,
    { what: 'recorded' },
  );
  registry.track({
    process_name: 'Self',
    status: 'stopped',
    pid: null,
    exit_code: 0,
    restarts: 0,
    started_at: null,
    reason: null,
  });
  await registry.flush();
  t.deepEqual(await storage.readJson('launched-groups.json'), []);
});
