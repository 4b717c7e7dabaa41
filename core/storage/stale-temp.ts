/**
 * Temp files of atomic writes that a crash interrupted (`.<name>.<pid>.<random>.tmp`, see
 * sdk/atomic-file.ts) are removed at start: one host owns a data dir, so none is in use then.
 */
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const TEMP_NAME = /^\..+\.\d+\.[0-9a-f]{12}\.tmp$/;
const MAX_DEPTH = 6;

/** Remove stale temp files under `root` (a few levels deep); returns how many went. */
export async function removeStaleTempFiles(root: string, depth = 0): Promise<number> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    const path = join(root, entry.name);
    if (entry.isFile() && TEMP_NAME.test(entry.name)) {
      await rm(path, { force: true });
      removed += 1;
    } else if (entry.isDirectory() && depth < MAX_DEPTH) {
      removed += await removeStaleTempFiles(path, depth + 1);
    }
  }
  return removed;
}

/** Remove the stale temp files of one file (the config file, outside the data dir). */
export async function removeStaleTempsOf(file: string): Promise<number> {
  const prefix = `.${basename(file)}.`;
  let names: string[];
  try {
    names = await readdir(dirname(file));
  } catch {
    return 0;
  }
  const stale = names.filter((name) => name.startsWith(prefix) && TEMP_NAME.test(name));
  await Promise.all(stale.map((name) => rm(join(dirname(file), name), { force: true })));
  return stale.length;
}
