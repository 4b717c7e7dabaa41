import test from 'ava';
import {
  didYouMean,
  lintDocument,
} from '../../../../plugins/supervisor/config-model/config-lint.js';

test('near-misses of fields and plugin names get a "did you mean"; disabled blocks are listed', (t) => {
  const notes = lintDocument(
    {
      web: { process_name: 'Web', command: ['x'], autorestart: true, depends_on: ['db'], mine: 1 },
      db: { process_name: 'Db', enabled: true, command: ['y'] },
      stackd: { supervisr: {}, api_service: { port: 0 } },
    },
    ['supervisor', 'graph'],
  );
  t.deepEqual(notes.warnings, [
    'web.autorestart: unknown field kept as is; did you mean auto_restart?',
    'web.depends_on: unknown field kept as is; did you mean wait_for_url (or wait_for_tcp, core_service)?',
    'stackd.supervisr: unknown field kept as is; did you mean supervisor?',
  ]);
  t.deepEqual(notes.disabled, ['Web']);
  t.is(didYouMean('unrelated_thing', ['port', 'host']), undefined);
});
