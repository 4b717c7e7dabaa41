import test from 'ava';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigHistory } from '../../../core/config/config-history.js';
import { tempDir } from '../../helpers/start-host.js';

test('list: newest first, new versions appear, pruned and removed files go', async (t) => {
  const directory = tempDir('stackd-config-history-');
  let keep = 3;
  const history = new ConfigHistory(directory, () => keep);
  await history.record({ a: 1 }, 'file', 'loaded at boot');
  await history.record({ a: 2 }, 'api', undefined);
  t.deepEqual(
    (await history.list()).map((entry) => [entry.version, entry.actor]),
    [
      [2, 'api'],
      [1, 'file'],
    ],
  );
  const listed = await history.list();
  Object.assign(listed[0]!, { actor: 'changed' });
  t.is((await history.list())[0]!.actor, 'api', 'a caller changing its list changes no other');
  await history.record({ a: 3 }, 'api', 'third');
  keep = 2;
  await history.record({ a: 4 }, 'api', 'fourth');
  t.deepEqual(
    (await history.list()).map((entry) => [entry.version, entry.reason]),
    [
      [4, 'fourth'],
      [3, 'third'],
    ],
  );
  rmSync(join(directory, readdirSync(directory).sort()[0]!));
  t.deepEqual(
    (await history.list()).map((entry) => entry.version),
    [4],
  );
  // A history opened on the same folder reads the same list from the files.
  t.deepEqual(await new ConfigHistory(directory, () => keep).list(), await history.list());
});
