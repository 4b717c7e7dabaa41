import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { ConfigStore } from '../../core/config/config-store.js';
import { derivedFromStack, type JsonRecord } from '../../sdk/index.js';

test('a derived value is computed once per document version and again after a change', async (t) => {
  const path = join(mkdtempSync(join(tmpdir(), 'derived-')), 'stackd.json');
  const content = { web: { enabled: true, process_name: 'Web' } };
  writeFileSync(path, JSON.stringify(content));
  const store = new ConfigStore({ readPath: path, writePath: path, origin: 'file' }, content);
  let derivations = 0;
  const names = derivedFromStack(store, (document) => {
    derivations += 1;
    return Object.keys(document);
  });

  const first = names();
  t.deepEqual(first, ['web']);
  t.is(names(), first, 'the same value until the document changes');
  t.is(derivations, 1);

  await store.update((draft: JsonRecord) => {
    draft.db = { enabled: true, process_name: 'DB' };
  });
  t.deepEqual(names(), ['web', 'db'], 'the change is seen by the very next call');
  t.is(derivations, 2);

  await t.throwsAsync(
    store.update(() => {
      throw new Error('refused');
    }),
  );
  names();
  t.is(derivations, 2, 'a refused update changes nothing, so nothing is derived again');
});
