import test from 'ava';
import {
  REDACTED,
  collectSecretValues,
  redactConfig,
  restoreSecrets,
  scrubSecrets,
} from '../../sdk/index.js';

const stored = {
  sonarr: {
    process_name: 'Sonarr',
    api_key: 'abc123',
    port: 8989,
    env: { SONARR_API_KEY: 'env-key', TZ: 'UTC', PASSWORD_MIN_LENGTH: 8 },
    wait_for_url: [
      {
        url: 'https://admin:hunter2@nas.local/health',
        probe_headers: { 'X-Api-Key': 'hdr', Accept: 'json' },
        auth: { user: 'admin', password: 'pw' },
      },
    ],
  },
  stackd: {
    notifications: {
      destinations: [{ id: 'd1', kind: 'discord', url: 'https://discord.com/api/webhooks/1/xyz' }],
    },
    ai: { profiles: [{ name: 'p', apiKey: 'sk-live', base_url: 'https://api.example.com' }] },
  },
  empty: { token: '' },
};

test('GET /config redaction: secrets by key name, headers, webhook URLs and URL credentials', (t) => {
  const shown: any = redactConfig(stored);
  t.is(shown.sonarr.api_key, REDACTED);
  t.is(shown.sonarr.port, 8989);
  t.deepEqual(shown.sonarr.env, { SONARR_API_KEY: REDACTED, TZ: 'UTC', PASSWORD_MIN_LENGTH: 8 });
  t.is(shown.sonarr.wait_for_url[0].url, 'https://***:***@nas.local/health');
  t.deepEqual(shown.sonarr.wait_for_url[0].probe_headers, {
    'X-Api-Key': REDACTED,
    Accept: REDACTED,
  });
  t.deepEqual(shown.sonarr.wait_for_url[0].auth, { user: 'admin', password: REDACTED });
  t.is(shown.stackd.notifications.destinations[0].url, REDACTED);
  t.is(shown.stackd.notifications.destinations[0].id, 'd1');
  t.is(shown.stackd.ai.profiles[0].apiKey, REDACTED);
  t.is(shown.stackd.ai.profiles[0].base_url, 'https://api.example.com');
  t.is(shown.empty.token, '', 'an unset secret shows as unset');
  t.is((stored.sonarr as any).api_key, 'abc123', 'the original is untouched');
});

test('a redacted block keeps its path context (a block read alone)', (t) => {
  const block: any = redactConfig(stored.stackd.notifications.destinations[0], [
    'stackd',
    'notifications',
    'destinations',
    '0',
  ]);
  t.is(block.url, REDACTED);
});

test('posting the redacted document back restores every stored secret', (t) => {
  const shown = redactConfig(stored);
  t.deepEqual(restoreSecrets(shown, stored, []), stored);
});

test('a blank secret keeps the stored one; a new value replaces it', (t) => {
  const posted = { api_key: '', env: { SONARR_API_KEY: 'rotated' }, port: 9000 };
  t.deepEqual(restoreSecrets(posted, stored.sonarr, ['sonarr']), {
    api_key: 'abc123',
    env: { SONARR_API_KEY: 'rotated' },
    port: 9000,
  });
});

test('a non-secret blank value is taken as posted', (t) => {
  t.deepEqual(restoreSecrets({ process_name: 'X', host: '' }, { host: 'h' }, ['a']), {
    process_name: 'X',
    host: '',
  });
});

test('collectSecretValues finds secret strings by key path and scrubSecrets removes them', (t) => {
  const document = {
    sonarr: { process_name: 'Sonarr', api_key: 'abcdef123456', port: 8989 },
    stackd: { notifications: { destinations: [{ id: 'd', url: 'https://hooks.example/xyz789' }] } },
    short: { token: 'on' },
  };
  const secrets = collectSecretValues(document);
  t.deepEqual(secrets.sort(), ['abcdef123456', 'https://hooks.example/xyz789']);
  const text = 'calling https://hooks.example/xyz789 with abcdef123456 on port 8989';
  const scrubbed = scrubSecrets(text, secrets);
  t.false(scrubbed.includes('abcdef123456'));
  t.false(scrubbed.includes('xyz789'));
  t.true(scrubbed.includes('port 8989'));
});
