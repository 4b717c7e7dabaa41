/** Leftovers of a crashed host: found by group record or launch marker; bystanders left alone. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { FolderStorage } from '../../../../core/storage/plugin-storage.js';
import { LaunchBook, leftoverMembers } from '../../../../plugins/supervisor/runtime/launch-book.js';
import { LAUNCH_ENV } from '../../../../plugins/supervisor/runtime/launch-marker.js';
import type { ProcInfo } from '../../../../plugins/supervisor/runtime/proc-table.js';
import type { ProcReader } from '../../../../plugins/supervisor/adoption/verify.js';
import { eventually } from '../../../helpers/eventually.js';
import { isAlive } from '../support/processes.js';
import { memoryLogger } from '../support/runner.js';

const row = (pid: number, pgrp: number, startTicks: string, state = 'S'): ProcInfo => ({
  pid,
  ppid: 1,
  pgrp,
  state,
  startTicks,
});

/** A /proc reader seeing only `table`, every process carrying `marker`. */
const readerOf = (table: readonly ProcInfo[], marker = 'x'): ProcReader => ({
  stat: (pid) => table.find((found) => found.pid === pid),
  marker: (pid) => (table.some((found) => found.pid === pid) ? marker : undefined),
});

test('a recorded group is reaped whatever its leader did; a reused pid is not', (t) => {
  const group = { process_name: 'A', pid: 500, start_ticks: '77', marker: 'x' };
  const members = (table: ProcInfo[], marker = 'x'): number[] =>
    leftoverMembers(group, table, readerOf(table, marker));
  t.deepEqual(members([row(500, 500, '77'), row(501, 500, '80')]), [500, 501]);
  t.deepEqual(members([row(501, 500, '80')]), [501], 'leader gone, member left');
  t.deepEqual(
    members([row(500, 500, '99'), row(501, 500, '100')]),
    [],
    'the pid now leads someone else',
  );
  t.deepEqual(members([row(500, 500, '77'), row(501, 500, '80')], 'y'), [], 'marker differs');
  t.deepEqual(members([row(500, 500, '77', 'Z')]), [], 'only a zombie');
});

test('a marked process with no record (the crash beat the write) is reaped at open', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'launch-book-'));
  const storage = new FolderStorage(dataDir, 'supervisor');
  // As a launch does: only once the first book's own reaping is over (it would end the orphan).
  const orphan = await markedOrphan(storage);
  const bystander = spawn('sleep', ['300'], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, [LAUNCH_ENV]: 'someone-else:1' },
  });
  bystander.unref();
  t.teardown(() => {
    try {
      process.kill(bystander.pid as number, 'SIGKILL');
    } catch {
      /* gone */
    }
  });
  const next = new LaunchBook(storage, memoryLogger());
  t.deepEqual(await next.reaped(), [`pid ${orphan}`]);
  await eventually(() => !isAlive(orphan), { what: 'the orphan gone' });
  t.true(isAlive(bystander.pid as number), 'another host’s process lives on');
});

/** A marked `sleep` of the data dir's supervisor with no record, as a crash leaves it. */
async function markedOrphan(storage: FolderStorage): Promise<number> {
  const first = new LaunchBook(storage, memoryLogger());
  await first.ready();
  const marker = first.newMarker();
  const orphan = spawn('sleep', ['300'], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, [marker.name]: marker.value },
  });
  orphan.unref();
  const pid = orphan.pid as number;
  // Until exec, a forked child still shows the parent's environment: wait for `sleep` itself.
  await eventually(
    () => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep');
      } catch {
        return false;
      }
    },
    { what: 'the orphan running sleep' },
  );
  return pid;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

test('after the boot’s adoptions the reaping waits its delay, unless a launch needs it', async (t) => {
  const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'launch-book-')), 'supervisor');
  const orphan = await markedOrphan(storage);
  t.teardown(() => killQuietly(orphan));
  const next = new LaunchBook(storage, memoryLogger());
  await next.verified();
  next.releaseAfterReaping(60_000);
  // Nothing needed it yet: it has not begun (a launch would wait for it).
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.true(isAlive(orphan), 'not reaped before the delay');
  await next.ready();
  await eventually(() => !isAlive(orphan), { what: 'the orphan gone once a launch asked' });
});

test('after the boot’s adoptions the reaping begins by itself once the delay is over', async (t) => {
  const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'launch-book-')), 'supervisor');
  const orphan = await markedOrphan(storage);
  t.teardown(() => killQuietly(orphan));
  const next = new LaunchBook(storage, memoryLogger());
  await next.verified();
  next.releaseAfterReaping(50);
  await eventually(() => !isAlive(orphan), { what: 'the orphan gone after the delay' });
  t.false(isAlive(orphan));
});

test('a stop right after the boot’s adoptions reaps at once what the delay held back', async (t) => {
  const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'launch-book-')), 'supervisor');
  const orphan = await markedOrphan(storage);
  t.teardown(() => killQuietly(orphan));
  const next = new LaunchBook(storage, memoryLogger());
  await next.verified();
  next.releaseAfterReaping(60_000);
  await next.releaseNow();
  await eventually(() => !isAlive(orphan), { what: 'the orphan gone at the stop' });
  t.false(isAlive(orphan));
});
