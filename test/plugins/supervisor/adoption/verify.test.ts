/** Verification of a recorded launch, and what the launch book does with a reused pid. */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { FolderStorage } from '../../../../core/storage/plugin-storage.js';
import { procReader, verifyLaunch } from '../../../../plugins/supervisor/adoption/verify.js';
import { LaunchBook } from '../../../../plugins/supervisor/runtime/launch-book.js';
import { readProcess, type ProcInfo } from '../../../../plugins/supervisor/runtime/proc-table.js';
import { eventually } from '../../../helpers/eventually.js';
import { isAlive } from '../support/processes.js';
import { memoryLogger } from '../support/runner.js';

const row: ProcInfo = { pid: 700, ppid: 1, pgrp: 700, state: 'S', startTicks: '42' };
const record = { pid: 700, start_ticks: '42', marker: 'id:one' };
const reader = (found: ProcInfo | undefined, marker: string | undefined) => ({
  stat: () => found,
  marker: () => marker,
});

test('only the same pid, start time, group and marker verify', (t) => {
  t.deepEqual(verifyLaunch(record, reader(row, 'id:one')), { same: true });
  t.false(verifyLaunch(record, reader(undefined, 'id:one')).same, 'gone');
  t.false(verifyLaunch(record, reader({ ...row, state: 'Z' }, 'id:one')).same, 'a zombie');
  t.false(verifyLaunch(record, reader({ ...row, startTicks: '43' }, 'id:one')).same, 'reused');
  t.false(verifyLaunch(record, reader({ ...row, pgrp: 1 }, 'id:one')).same, 'left its group');
  t.false(verifyLaunch(record, reader(row, undefined)).same, 'marker missing');
  t.false(verifyLaunch(record, reader(row, 'id:two')).same, 'another launch');
});

/** A detached `sleep 300` with `env`, once it runs sleep itself (exec done). */
async function sleeper(t: { teardown(fn: () => void): void }, env: Record<string, string>) {
  const child = spawn('sleep', ['300'], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, ...env },
  });
  child.unref();
  const pid = child.pid as number;
  t.teardown(() => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  });
  await eventually(() => readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep'), {
    what: 'sleep running',
  });
  return pid;
}

function bookWithRecord(pid: number, marker: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'adopt-verify-'));
  const storage = new FolderStorage(dataDir, 'supervisor');
  mkdirSync(storage.path('groups'), { recursive: true });
  writeFileSync(storage.path('supervisor-id'), marker.split(':')[0] as string);
  const group = {
    process_name: 'Decoy',
    pid,
    start_ticks: readProcess(pid)?.startTicks ?? '',
    marker,
    adoption: { started_at: Date.now(), restarts: 0, fingerprint: '', fifos: false },
  };
  writeFileSync(storage.path(`groups/${pid}.json`), JSON.stringify(group));
  return storage;
}

test('a recorded pid whose start time differs (reused) is never adopted and never signalled', async (t) => {
  // The decoy carries no marker, as another program on a reused pid would.
  const decoy = await sleeper(t, {});
  const storage = bookWithRecord(decoy, 'supervisorid1:launch');
  const reused = {
    stat: (pid: number) => {
      const found = procReader.stat(pid);
      return found === undefined ? undefined : { ...found, startTicks: `${found.startTicks}9` };
    },
    marker: (pid: number) => procReader.marker(pid),
  };
  const book = new LaunchBook(storage, memoryLogger(), reused);
  await book.ready();
  t.is(book.claim('Decoy'), undefined, 'not adopted');
  await book.releaseUnclaimed();
  t.true(isAlive(decoy), 'never signalled');
});

test('a recorded pid without its launch marker is never adopted and never signalled', async (t) => {
  const decoy = await sleeper(t, {});
  const book = new LaunchBook(bookWithRecord(decoy, 'supervisorid2:launch'), memoryLogger());
  await book.ready();
  t.is(book.claim('Decoy'), undefined);
  await book.releaseUnclaimed();
  t.true(isAlive(decoy));
});

test('a verified launch is spared by the reaping and offered for adoption', async (t) => {
  const marker = 'supervisorid3:launch';
  const child = await sleeper(t, { STACKD_LAUNCH: marker });
  const book = new LaunchBook(bookWithRecord(child, marker), memoryLogger());
  await book.ready();
  t.is(book.claim('Decoy')?.pid, child);
  t.true(isAlive(child), 'not reaped');
});

test('a verified launch nobody adopts is stopped', async (t) => {
  const marker = 'supervisorid4:launch';
  const child = await sleeper(t, { STACKD_LAUNCH: marker });
  const book = new LaunchBook(bookWithRecord(child, marker), memoryLogger());
  await book.ready();
  t.deepEqual(await book.releaseUnclaimed(), ['Decoy']);
  await eventually(() => !isAlive(child), { what: 'the unclaimed leftover stopped' });
  t.pass();
});
