/** The ai plugin's config slice: validation naming the field, and where the docs tree comes from. */
import test from 'ava';
import { docsDirOf, validateAiSlice } from '../../../plugins/ai/config.js';

test('a malformed stackd.ai slice is refused naming the field; a good or absent one passes', (t) => {
  const error = t.throws(() => validateAiSlice({ stackd: { ai: { docs_dir: 5 } } }));
  t.like(error, { code: 'AI_CONFIG_INVALID', field: 'stackd.ai.docs_dir' });
  t.throws(() => validateAiSlice({ stackd: { ai: { docs_dir: '' } } }), {
    message: /stackd\.ai/,
  });
  t.notThrows(() => validateAiSlice({ stackd: { ai: { docs_dir: '/srv/docs' } } }));
  t.notThrows(() => validateAiSlice({ stackd: {} }));
  t.notThrows(() => validateAiSlice({}));
});

test('docs_dir in the document wins over STACKD_AI_DOCS_DIR, which is the fallback', (t) => {
  const environment = { STACKD_AI_DOCS_DIR: '/env/docs' };
  t.is(docsDirOf({ stackd: { ai: { docs_dir: '/srv/docs' } } }, environment), '/srv/docs');
  t.is(docsDirOf({ stackd: { ai: {} } }, environment), '/env/docs');
  t.is(docsDirOf({}, environment), '/env/docs');
  t.is(docsDirOf({}, {}), undefined);
});
