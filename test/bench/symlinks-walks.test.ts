import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sumOf, timeFind, timeFloor, timeScan, warmRounds } from '../../bench/symlinks-walks.js';

/** `root/library` with 3 folders of 40 links (half broken) and one nested folder of 5. */
function smallTree(): { root: string; links: number } {
  const root = mkdtempSync(join(tmpdir(), 'stackd-test-walks-'));
  for (let dir = 0; dir < 3; dir += 1) {
    const folder = join(root, 'library', `d${dir}`);
    mkdirSync(folder, { recursive: true });
    for (let index = 0; index < 40; index += 1)
      symlinkSync(index % 2 === 0 ? '/etc/hostname' : `/gone/${index}`, join(folder, `l${index}`));
  }
  const nested = join(root, 'library', 'd0', 'deeper');
  mkdirSync(nested);
  for (let index = 0; index < 5; index += 1) symlinkSync('/gone', join(nested, `n${index}`));
  return { root, links: 125 };
}

test('every walker of the bench finds every link of the tree and reports its CPU', (t) => {
  const { root, links } = smallTree();
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const find = timeFind(root, links);
  t.true(find.cpuMs >= 0 && Number.isFinite(find.cpuMs));
  for (const walk of [timeFloor(root), timeFloor(root, true), timeScan(root)]) {
    t.is(walk.links, links);
    t.true(walk.cpuMs > 0 && walk.ms > 0);
  }
  const scan = timeScan(root, true);
  t.is(scan.workers, 1, 'a warm walk starts one worker');
  t.true(scan.rssPeakMiB >= scan.rssBeforeMiB);
});

test('a warm round sums its walks of each walker; every scan walk is kept beside the sums', (t) => {
  t.deepEqual(
    sumOf([
      { links: 10, ms: 1, cpuMs: 2 },
      { links: 10, ms: 3, cpuMs: 4 },
    ]),
    { links: 20, ms: 4, cpuMs: 6 },
  );
  const { root, links } = smallTree();
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const rounds = warmRounds(root, links, 1);
  for (const walker of [rounds.find, rounds.floor, rounds.workerFloor, rounds.scan]) {
    t.is(walker.length, 1);
    t.is(walker[0]?.links, 3 * links, 'three walks summed');
  }
  t.is(rounds.scanWalks.length, 3);
});
