/** The symlinks slice read from the document, and the trees it configures. */
import test from 'ava';
import { withDefaults } from '../../../sdk/index.js';
import {
  configuredRoots,
  SymlinksConfig,
  symlinksConfigOf,
} from '../../../plugins/symlinks/config.js';

const defaults = withDefaults(SymlinksConfig, {}) as SymlinksConfig;

test('the slice comes from the document, with the defaults filled in', (t) => {
  const config = symlinksConfigOf({ stackd: { symlinks: { allowed_roots: ['/mnt'] } } }, defaults);
  t.deepEqual(config.allowed_roots, ['/mnt']);
  t.deepEqual(config.default_roots, defaults.default_roots);
});

test('an invalid slice falls back to the one the plugin started with', (t) => {
  const fallback = { ...defaults, allowed_roots: ['/fallback'] };
  const config = symlinksConfigOf(
    { stackd: { symlinks: { allowed_roots: 'not a list' } } },
    fallback,
  );
  t.is(config, fallback);
});

test("configured roots: the defaults plus every block's backup roots and library path, once each", (t) => {
  const config = { ...defaults, default_roots: ['/lib/a', ' /lib/b ', ''] };
  const document = {
    radarr: {
      process_name: 'Radarr',
      symlink_backup_roots: ['/lib/a', '/lib/c'],
      symlink_library_path: '/lib/d',
    },
    sonarr: { process_name: 'Sonarr', symlink_backup_roots: 'not a list' },
  };
  t.deepEqual(configuredRoots(config, document), ['/lib/a', '/lib/b', '/lib/c', '/lib/d']);
});
