/**
 * A small real file system to fill up: a tmpfs mounted for the test (root in a container, as in
 * CI). Where mounting is not permitted the test is skipped with the reason.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A mounted tmpfs, or why there is none. */
export type TinyFs =
  | { readonly mounted: true; readonly dir: string; readonly unmount: () => void }
  | { readonly mounted: false; readonly reason: string };

/** Mount a tmpfs of `sizeMb` MiB on a fresh temp dir. */
export function mountTinyFs(sizeMb: number, prefix = 'stackd-tinyfs-'): TinyFs {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], {
      stdio: 'pipe',
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return {
      mounted: false,
      reason: `cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): ${stderr || String(error)}`,
    };
  }
  return {
    mounted: true,
    dir,
    unmount: () => {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fill the file system holding `dir` to the last byte; returns the filler file (rm to free). */
export function fillUp(dir: string): string {
  const filler = join(dir, 'filler');
  const chunk = Buffer.alloc(64 * 1024, 1);
  const small = Buffer.alloc(512, 1);
  try {
    for (;;) writeFileSync(filler, chunk, { flag: 'a' });
  } catch {
    // ENOSPC for a large chunk: top the last blocks up with small ones.
  }
  try {
    for (;;) writeFileSync(filler, small, { flag: 'a' });
  } catch {
    // ENOSPC: full.
  }
  return filler;
}
