/** The ai plugin's config slice: where the docs tree comes from (core validates the slice). */
import test from 'ava';
import { docsDirOf } from '../../../plugins/ai/config.js';

test('docs_dir in the document wins over STACKD_AI_DOCS_DIR, which is the fallback', (t) => {
  const environment = { STACKD_AI_DOCS_DIR: '/env/docs' };
  t.is(docsDirOf({ stackd: { ai: { docs_dir: '/srv/docs' } } }, environment), '/srv/docs');
  t.is(docsDirOf({ stackd: { ai: {} } }, environment), '/env/docs');
  t.is(docsDirOf({}, environment), '/env/docs');
  t.is(docsDirOf({}, {}), undefined);
});
