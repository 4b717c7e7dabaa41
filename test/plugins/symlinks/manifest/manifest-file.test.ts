/**
 * The manifest writer on a real full file system (a filled tmpfs): a write the disk refuses
 * fails the backup with ENOSPC (never an uncaught stream error that stops the process), the temp
 * file is removed and no manifest appears.
 */
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runBackup } from '../../../../plugins/symlinks/backup/backup.js';
import { ManifestWriter } from '../../../../plugins/symlinks/manifest/manifest-file.js';
import { fillUp, mountTinyFs } from '../../../helpers/tiny-fs.js';

const tiny = mountTinyFs(2);
test.after.always(() => {
  if (tiny.mounted) tiny.unmount();
});
const onTinyFs = tiny.mounted ? test.serial : test.serial.skip;
if (!tiny.mounted)
  test('full-disk manifest tests', (t) => {
    t.log(`skipped: ${tiny.reason}`);
    t.pass();
  });

function linkTree(count: number): string {
  const root = mkdtempSync(join(tmpdir(), 'stackd-manifest-links-'));
  mkdirSync(join(root, 'movies'));
  for (let index = 0; index < count; index += 1)
    symlinkSync(`/media/old/movie-${index}.mkv`, join(root, 'movies', `movie-${index}.mkv`));
  return root;
}

onTinyFs('a full disk fails the manifest write with ENOSPC and leaves nothing', async (t) => {
  if (!tiny.mounted) return;
  const dir = join(tiny.dir, 'writer');
  mkdirSync(dir);
  fillUp(tiny.dir);
  const writer = await ManifestWriter.open(join(dir, 'm.json'), { manifest_type: 'test' }).catch(
    (error: unknown) => error,
  );
  // The header fits the stream's buffer: the refusal comes asynchronously, on a later call.
  const failure = await (async () => {
    if (!(writer instanceof ManifestWriter)) return writer;
    try {
      for (let index = 0; index < 10_000; index += 1)
        await writer.add({ link_path: `/l/${index}`, target: `/t/${index}` });
      await writer.commit();
      return undefined;
    } catch (error) {
      await writer.abort();
      return error;
    }
  })();
  t.is((failure as NodeJS.ErrnoException | undefined)?.code, 'ENOSPC');
  t.deepEqual(readdirSync(dir), [], 'no manifest and no temp file');
});

onTinyFs('a backup onto a full disk rejects with ENOSPC (the process survives)', async (t) => {
  if (!tiny.mounted) return;
  const roots = [linkTree(3000)];
  const dir = join(tiny.dir, 'backup');
  mkdirSync(dir);
  fillUp(tiny.dir);
  const error = await t.throwsAsync(
    runBackup({
      manifestPath: join(dir, 'latest.json'),
      roots,
      missingRoots: [],
      includeBroken: true,
      concurrency: 1,
      maxListed: 100,
    }),
  );
  t.is((error as NodeJS.ErrnoException).code, 'ENOSPC');
  t.deepEqual(readdirSync(dir), []);
});
