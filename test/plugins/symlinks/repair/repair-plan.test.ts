/** Planning a repair: migration roots and default trees against allowed_roots, by real path. */
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { planRepair, resolveRoots } from '../../../../plugins/symlinks/repair/repair-plan.js';

function tree() {
  const base = mkdtempSync(join(tmpdir(), 'stackd-plan-'));
  const allowed = join(base, 'allowed');
  const outside = join(base, 'outside');
  mkdirSync(join(allowed, 'from'), { recursive: true });
  mkdirSync(outside);
  symlinkSync(outside, join(allowed, 'escape'));
  return { base, allowed, outside };
}

const request = (from_root: string, to_root: string) => ({
  dry_run: true,
  include_broken: false,
  overwrite_existing: false,
  copy_instead_of_move: false,
  root_migrations: [{ from_root, to_root }],
});

test('a to_root that does not exist yet is accepted inside the allowed roots', (t) => {
  const { allowed } = tree();
  const to = join(allowed, 'new mount', 'sub');
  const plan = planRepair(request(join(allowed, 'from'), to), [], [allowed]);
  t.deepEqual(plan.migrations, [{ from_root: join(allowed, 'from'), to_root: to }]);
  t.false(existsSync(to), 'planning creates nothing');
});

test('migration roots outside, through a symlink, with `..` or naming a file are refused', (t) => {
  const { base, allowed, outside } = tree();
  writeFileSync(join(allowed, 'file'), 'x');
  const cases: Array<[string, string, string]> = [
    [join(allowed, 'from'), join(outside, 'new'), 'to_root'],
    [outside, join(allowed, 'to'), 'from_root'],
    [join(allowed, 'escape'), join(allowed, 'to'), 'from_root'],
    [join(allowed, 'from'), join(allowed, 'escape', 'new'), 'to_root'],
    [join(allowed, 'from'), join(allowed, 'from', '..', '..', 'x'), 'to_root'],
    [join(allowed, 'from'), join(allowed, 'file'), 'to_root'],
    [join(allowed, 'from'), 'relative/dir', 'to_root'],
  ];
  for (const [from, to, side] of cases) {
    const error = t.throws(
      () => planRepair(request(from, to), [], [allowed]),
      undefined,
      `${from} → ${to}`,
    );
    t.like(error, { status: 400, field: `root_migrations[0].${side}` }, `${from} → ${to}`);
  }
  t.notThrows(() => planRepair(request(outside, join(base, 'anywhere')), [], []));
});

test('default trees outside the allowed roots are left out and listed', (t) => {
  const { allowed, outside } = tree();
  const resolved = resolveRoots(
    undefined,
    [join(allowed, 'from'), outside, join(allowed, 'escape')],
    [allowed],
  );
  t.deepEqual(resolved.roots, [join(allowed, 'from')]);
  t.deepEqual(resolved.missingRoots, [outside, join(allowed, 'escape')]);
});
