/** `seerr_sync`: the dashboard's layout of the sync settings, read and written back. */
import test from 'ava';
import { seerrSyncView } from '../../../plugins/sync/dashboard-view.js';
import { HttpError, REDACTED, type JsonRecord } from '../../../sdk/index.js';

const stored = (): JsonRecord => ({
  stackd: {
    sync: {
      enabled: true,
      primary: { url: 'http://127.0.0.1:5055', api_key: 'primary-key' },
      subordinates: [{ label: 'far', url: 'http://127.0.0.1:9000', api_key: 'far-key' }],
      poll_interval_seconds: 30,
      retry_delay_seconds: 120,
    },
  },
});

const syncOf = (draft: JsonRecord) => (draft.stackd as JsonRecord).sync as JsonRecord;

test('read shows the settings in the dashboard layout with the fixed options', (t) => {
  t.deepEqual(seerrSyncView.read(stored()), {
    enabled: true,
    poll_interval_seconds: 30,
    external_primary: { enabled: true, url: 'http://127.0.0.1:5055', api_key: 'primary-key' },
    external_subordinates: [{ url: 'http://127.0.0.1:9000', api_key: 'far-key', label: 'far' }],
    options: {
      sync_pending: true,
      sync_approved: true,
      sync_declined: true,
      sync_deletes: true,
      sync_4k_separately: true,
      user_mapping: 'admin',
    },
  });
});

test('blank or redacted keys posted back keep the stored ones; other keys of the slice stay', (t) => {
  const draft = stored();
  seerrSyncView.write(draft, {
    poll_interval_seconds: 45,
    external_primary: { enabled: true, url: ' http://127.0.0.1:5055 ', api_key: REDACTED },
    external_subordinates: [{ url: 'http://127.0.0.1:9000', api_key: '' }],
    options: { sync_deletes: true, user_mapping: 'email_match' },
  });
  const sync = syncOf(draft);
  t.deepEqual(sync.primary, { url: 'http://127.0.0.1:5055', api_key: 'primary-key' });
  t.deepEqual(sync.subordinates, [
    { label: 'far', url: 'http://127.0.0.1:9000', api_key: 'far-key' },
  ]);
  t.is(sync.poll_interval_seconds, 45);
  t.is(sync.retry_delay_seconds, 120, 'a setting the dashboard does not show is kept');
  t.is(sync.user_mapping, 'email_match');
});

test('a primary switched off is removed; a new subordinate without a label gets one', (t) => {
  const draft: JsonRecord = {};
  seerrSyncView.write(draft, {
    enabled: true,
    external_primary: { enabled: false, url: 'http://127.0.0.1:5055', api_key: 'k' },
    external_subordinates: [
      { url: 'http://127.0.0.1:9001', api_key: 'a' },
      { url: 'http://127.0.0.1:9002', api_key: 'b', label: 'named' },
    ],
  });
  const sync = syncOf(draft);
  t.true(sync.enabled);
  t.false('primary' in sync);
  t.deepEqual(
    (sync.subordinates as JsonRecord[]).map((sub) => sub.label),
    ['external-1', 'named'],
  );
});

const refusal = (update: JsonRecord) => {
  try {
    seerrSyncView.write(stored(), update);
  } catch (error) {
    if (error instanceof HttpError)
      return { status: error.status, code: error.code, field: error.field };
    throw error;
  }
  return undefined;
};

test('bad values and options stackd cannot offer are refused naming the field', (t) => {
  t.deepEqual(refusal({ poll_interval_seconds: 3 }), {
    status: 422,
    code: 'SYNC_CONFIG_INVALID',
    field: 'updates.seerr_sync.poll_interval_seconds',
  });
  t.deepEqual(refusal({ external_subordinates: [{ url: '', api_key: 'k' }] }), {
    status: 422,
    code: 'SYNC_CONFIG_INVALID',
    field: 'updates.seerr_sync.external_subordinates.0.url',
  });
  t.deepEqual(refusal({ external_subordinates: ['http://127.0.0.1:1'] }), {
    status: 422,
    code: 'SYNC_CONFIG_INVALID',
    field: 'updates.seerr_sync.external_subordinates.0',
  });
  t.deepEqual(refusal({ external_primary: { enabled: true, url: 5055 } }), {
    status: 422,
    code: 'SYNC_CONFIG_INVALID',
    field: 'updates.seerr_sync.external_primary.url',
  });
  t.deepEqual(refusal({ options: { sync_deletes: false } }), {
    status: 422,
    code: 'SYNC_OPTION_UNSUPPORTED',
    field: 'updates.seerr_sync.options.sync_deletes',
  });
  t.deepEqual(refusal({ options: { user_mapping: 'by_name' } }), {
    status: 422,
    code: 'SYNC_CONFIG_INVALID',
    field: 'updates.seerr_sync.options.user_mapping',
  });
});
