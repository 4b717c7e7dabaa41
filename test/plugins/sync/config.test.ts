/** The `stackd.sync` slice: defaults, a malformed slice refused naming its field, and ignored. */
import test from 'ava';
import { syncConfigOf, validateSyncSlice } from '../../../plugins/sync/config.js';
import { HttpError } from '../../../sdk/index.js';

test('a document without a sync slice reads as the defaults', (t) => {
  t.deepEqual(syncConfigOf({}), {
    enabled: false,
    subordinates: [],
    internal_subordinates: [],
    poll_interval_seconds: 60,
    retry_delay_seconds: 300,
    sync_4k: false,
    user_mapping: 'admin',
  });
  t.notThrows(() => validateSyncSlice({ stackd: {} }));
});

test('a written slice keeps its values and fills the rest', (t) => {
  const config = syncConfigOf({
    stackd: {
      sync: {
        enabled: true,
        primary: { url: 'http://127.0.0.1:5055', api_key: 'p' },
        poll_interval_seconds: 15,
        user_mapping: 'email_match',
      },
    },
  });
  t.true(config.enabled);
  t.deepEqual(config.primary, { url: 'http://127.0.0.1:5055', api_key: 'p' });
  t.is(config.poll_interval_seconds, 15);
  t.is(config.retry_delay_seconds, 300);
  t.is(config.user_mapping, 'email_match');
});

test('a malformed slice is refused with 422 naming the field, and reads as the defaults', (t) => {
  const document = { stackd: { sync: { enabled: true, poll_interval_seconds: 2 } } };
  const error = t.throws(() => validateSyncSlice(document), { instanceOf: HttpError });
  t.is(error?.status, 422);
  t.is(error?.code, 'SYNC_CONFIG_INVALID');
  t.is(error?.field, 'stackd.sync.poll_interval_seconds');
  t.false(syncConfigOf(document).enabled, 'an invalid slice never turns sync on');
  t.is(syncConfigOf(document).poll_interval_seconds, 60);
});

test('a subordinate without a label is refused naming the array entry', (t) => {
  const error = t.throws(
    () =>
      validateSyncSlice({
        stackd: { sync: { subordinates: [{ url: 'http://127.0.0.1:1', api_key: 'k' }] } },
      }),
    { instanceOf: HttpError },
  );
  t.regex(error?.field ?? '', /^stackd\.sync\.subordinates\.0/);
});
