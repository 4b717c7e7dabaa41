/** Confinement by real path on a real tree: symlinked folders, `..`, missing paths. */
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import {
  checkAllowed,
  destinationAllowed,
  hasParentSegment,
  isAllowed,
  realOrNearest,
} from '../../../plugins/symlinks/confinement.js';

function tree() {
  const base = mkdtempSync(join(tmpdir(), 'stackd-confine-'));
  const allowed = join(base, 'allowed');
  const outside = join(base, 'outside');
  mkdirSync(join(allowed, 'movies'), { recursive: true });
  mkdirSync(outside);
  symlinkSync(outside, join(allowed, 'escape'));
  return { base, allowed, outside };
}

test('a symlinked folder inside an allowed root that points out is outside', (t) => {
  const { allowed, outside } = tree();
  t.true(isAllowed(join(allowed, 'movies'), [allowed]));
  t.false(isAllowed(join(allowed, 'escape'), [allowed]));
  t.false(isAllowed(join(allowed, 'escape', 'not-yet', 'deeper'), [allowed]));
  t.is(realOrNearest(join(allowed, 'escape', 'not-yet')), join(outside, 'not-yet'));
  t.true(isAllowed('/anywhere', []), 'no allowed roots: no confinement');
});

test('the allowed roots are compared by their real paths too', (t) => {
  const { base, allowed } = tree();
  const alias = join(base, 'alias');
  symlinkSync(allowed, alias);
  t.true(isAllowed(join(allowed, 'movies'), [alias]));
  t.true(isAllowed(join(alias, 'movies', 'new'), [allowed]));
});

test('refusals name the field; `..` segments are spotted', (t) => {
  const { allowed, outside } = tree();
  const error = t.throws(() => checkAllowed(outside, [allowed], 'root_migrations[0].to_root'));
  t.like(error, {
    status: 400,
    code: 'SYMLINK_ROOT_NOT_ALLOWED',
    field: 'root_migrations[0].to_root',
  });
  t.true(hasParentSegment('/a/link/../b'));
  t.false(hasParentSegment('/a/..b/c'));
});

test('a migration destination under a symlinked folder out of the roots is refused', (t) => {
  const { allowed } = tree();
  const toRoot = join(allowed, 'movies');
  t.true(destinationAllowed(Buffer.from(join(toRoot, 'a', 'x.mkv')), toRoot, [allowed]));
  symlinkSync(join(allowed, 'escape'), join(toRoot, 'out'));
  t.false(destinationAllowed(Buffer.from(join(toRoot, 'out', 'x.mkv')), toRoot, [allowed]));
  t.true(destinationAllowed(Buffer.from(join(toRoot, 'out', 'x.mkv')), toRoot, []));
});
