/**
 * SIGKILL the host in the middle of applying a repair: every link is the old one or the new one,
 * none is missing, and the next repair finishes the job (and clears interrupted temp links).
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { startSymlinkHost } from './support.js';

const DIRS = 40;
const PER_DIR = 500;

test('a repair killed mid-apply loses no link; the next run completes it', async (t) => {
  const base = mkdtempSync(join(tmpdir(), 'stackd-crash-links-'));
  for (let dir = 0; dir < DIRS; dir += 1) {
    mkdirSync(join(base, `d${dir}`));
    for (let index = 0; index < PER_DIR; index += 1)
      symlinkSync(`/old/media/${dir}/${index}.mkv`, join(base, `d${dir}`, `l${index}`));
  }
  const rule = { from_prefix: '/old/media', to_prefix: '/new/media' };
  const first = await startSymlinkHost([base]);
  const ack = await request(first.url, '/process/symlink-repair-async', {
    body: { rewrite_rules: [rule], roots: [base], dry_run: false },
  });
  t.is(ack.status, 200, ack.text);
  // Killed once rewrites are under way (progress is saved every 2,000 links).
  await eventually(
    async () => {
      const job = await request(first.url, `/process/symlink-job-status?job_id=${ack.body.job_id}`);
      return job.body.status === 'completed' || (job.body.progress?.changed ?? 0) > 0;
    },
    { intervalMs: 5 },
  );
  await first.stop('SIGKILL');

  let oldCount = 0;
  let newCount = 0;
  for (let dir = 0; dir < DIRS; dir += 1)
    for (let index = 0; index < PER_DIR; index += 1) {
      const target = readlinkSync(join(base, `d${dir}`, `l${index}`));
      if (target === `/old/media/${dir}/${index}.mkv`) oldCount += 1;
      else if (target === `/new/media/${dir}/${index}.mkv`) newCount += 1;
    }
  t.is(oldCount + newCount, DIRS * PER_DIR, 'every link is the old or the new one');
  t.log(`killed after ${newCount} of ${DIRS * PER_DIR} rewrites`);

  const second = await startSymlinkHost(
    [base],
    {},
    { dataDir: first.dataDir, configPath: first.configPath as string },
  );
  t.teardown(() => second.stop());
  const interrupted = await request(
    second.url,
    `/process/symlink-job-status?job_id=${ack.body.job_id}`,
  );
  t.true(interrupted.body.status === 'error' || interrupted.body.status === 'completed');
  const finish = await request(second.url, '/process/symlink-repair', {
    body: { rewrite_rules: [rule], roots: [base], dry_run: false },
  });
  t.is(finish.body.changed, oldCount);
  const leftovers = readdirSync(join(base, 'd0')).filter((name) =>
    name.startsWith('.stackd-relink-'),
  );
  t.deepEqual(leftovers, []);
  t.true(lstatSync(join(base, 'd0', 'l0')).isSymbolicLink());
});
