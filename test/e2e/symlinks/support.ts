/** A real tree of symlinks in a temp dir, and a host with the symlinks plugin. */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';

/** The tree: `old/` holds real files, `links/` links into it (one broken, one relative). */
export interface LinkTree {
  readonly base: string;
  readonly links: string;
  readonly oldRoot: string;
  readonly newRoot: string;
}

/** Build the tree: movies/a.mkv → old/a.mkv, movies/b.mkv → old/gone.mkv (broken), rel → ../old/a.mkv. */
export function linkTree(): LinkTree {
  const base = mkdtempSync(join(tmpdir(), 'stackd-links-'));
  const oldRoot = join(base, 'old');
  const newRoot = join(base, 'new');
  const links = join(base, 'links');
  for (const dir of [oldRoot, newRoot, join(links, 'movies'), join(links, 'shows', 'season 1')])
    mkdirSync(dir, { recursive: true });
  for (const name of ['a.mkv', 'c.mkv']) {
    writeFileSync(join(oldRoot, name), name);
    writeFileSync(join(newRoot, name), name);
  }
  symlinkSync(join(oldRoot, 'a.mkv'), join(links, 'movies', 'a.mkv'));
  symlinkSync(join(oldRoot, 'gone.mkv'), join(links, 'movies', 'b.mkv'));
  symlinkSync(join(oldRoot, 'c.mkv'), join(links, 'shows', 'season 1', 'name with\nnewline.mkv'));
  symlinkSync('../../old/a.mkv', join(links, 'movies', 'relative.mkv'));
  // A directory link pointing back up: a loop the scan must not follow.
  symlinkSync(links, join(links, 'shows', 'loop'));
  return { base, links, oldRoot, newRoot };
}

/** A host with only the symlinks plugin, its default roots pointed at `roots`. */
export function startSymlinkHost(
  roots: readonly string[],
  extra: Record<string, unknown> = {},
  options: { dataDir?: string; configPath?: string } = {},
): Promise<RunningHostProcess> {
  return startHost({
    plugins: [builtinPlugin('symlinks')],
    ...(options.configPath === undefined
      ? {
          config: {
            stackd: { symlinks: { default_roots: roots, schedule_check_sec: 1 } },
            ...extra,
          },
        }
      : { configPath: options.configPath }),
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
  });
}
