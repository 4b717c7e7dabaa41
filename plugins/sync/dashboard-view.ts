/**
 * `seerr_sync`: the request-sync settings in the layout DUMB's dashboard edits (its Seerr sync
 * panel reads `GET /config` and saves `POST /config {updates: {seerr_sync}}`), stored in
 * `stackd.sync`. Options stackd does not offer (skipping requests by status, keeping deletions,
 * one fingerprint for 4K and HD) are shown as stackd behaves and refused when changed, naming
 * the field; keys posted back blank or redacted keep the stored ones.
 */
import {
  InputError,
  REDACTED,
  isJsonRecord,
  type ConfigView,
  type JsonRecord,
} from '../../sdk/index.js';
import { syncConfigOf, type SyncConfig } from './config.js';
import { CONFIG_INVALID, OPTION_UNSUPPORTED } from './errors.js';

/** What stackd always does, in the dashboard's option names. */
const FIXED_OPTIONS = {
  sync_pending: true,
  sync_approved: true,
  sync_declined: true,
  sync_deletes: true,
  sync_4k_separately: true,
} as const;

const field = (path: string) => `updates.seerr_sync.${path}`;

function text(value: unknown, path: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string')
    throw new InputError(CONFIG_INVALID, `${path} must be a string`, { field: field(path) });
  return value.trim();
}

/** A posted-back key: blank or redacted keeps the stored one. */
const keyOf = (posted: string, stored: string | undefined) =>
  posted === '' || posted === REDACTED ? (stored ?? '') : posted;

function read(document: Readonly<JsonRecord>): JsonRecord {
  const config = syncConfigOf(document);
  return {
    enabled: config.enabled,
    poll_interval_seconds: config.poll_interval_seconds,
    external_primary: {
      enabled: config.primary !== undefined,
      url: config.primary?.url ?? '',
      api_key: config.primary?.api_key ?? '',
    },
    external_subordinates: config.subordinates.map((sub) => ({
      url: sub.url,
      api_key: sub.api_key,
      label: sub.label,
    })),
    options: { ...FIXED_OPTIONS, user_mapping: config.user_mapping },
  };
}

/** The poll interval: a whole number of seconds, at least 5. */
function writeInterval(next: SyncConfig, update: JsonRecord): void {
  if (update.poll_interval_seconds !== undefined) {
    const seconds = Number(update.poll_interval_seconds);
    if (!Number.isInteger(seconds) || seconds < 5)
      throw new InputError(
        CONFIG_INVALID,
        'poll_interval_seconds must be a whole number of at least 5',
        { field: field('poll_interval_seconds') },
      );
    next.poll_interval_seconds = seconds;
  }
}

/** The primary: set when switched on with a URL, removed otherwise. */
function writePrimary(next: SyncConfig, stored: SyncConfig, update: JsonRecord): void {
  const primary = update.external_primary;
  if (isJsonRecord(primary)) {
    const url = text(primary.url, 'external_primary.url');
    if (primary.enabled === true && url !== '')
      next.primary = {
        url,
        api_key: keyOf(text(primary.api_key, 'external_primary.api_key'), stored.primary?.api_key),
      };
    else delete next.primary;
  }
}

/** The subordinates, matched to the stored ones by URL (else position) for their key and label. */
function writeSubordinates(next: SyncConfig, stored: SyncConfig, update: JsonRecord): void {
  if (Array.isArray(update.external_subordinates)) {
    next.subordinates = update.external_subordinates.map((entry: unknown, index) => {
      const path = `external_subordinates.${index}`;
      if (!isJsonRecord(entry))
        throw new InputError(CONFIG_INVALID, `${path} must be an object`, {
          field: field(path),
        });
      const url = text(entry.url, `${path}.url`);
      if (url === '')
        throw new InputError(CONFIG_INVALID, `${path}.url is required`, {
          field: field(`${path}.url`),
        });
      const previous =
        stored.subordinates.find((sub) => sub.url === url) ?? stored.subordinates[index];
      const label =
        text(entry.label, `${path}.label`) || previous?.label || `external-${index + 1}`;
      return {
        label,
        url,
        api_key: keyOf(text(entry.api_key, `${path}.api_key`), previous?.api_key),
      };
    });
  }
}

/** The options: the fixed ones may only be posted as stackd behaves; user_mapping is free. */
function writeOptions(next: SyncConfig, update: JsonRecord): void {
  const options = update.options;
  if (isJsonRecord(options)) {
    for (const [name, value] of Object.entries(FIXED_OPTIONS))
      if (options[name] !== undefined && options[name] !== value)
        throw new InputError(
          OPTION_UNSUPPORTED,
          `options.${name}: stackd always ${value ? 'does this' : 'skips this'}; it cannot be turned ${value ? 'off' : 'on'}`,
          { field: field(`options.${name}`) },
        );
    if (options.user_mapping !== undefined) {
      if (options.user_mapping !== 'admin' && options.user_mapping !== 'email_match')
        throw new InputError(CONFIG_INVALID, 'options.user_mapping must be admin or email_match', {
          field: field('options.user_mapping'),
        });
      next.user_mapping = options.user_mapping;
    }
  }
}

function write(draft: JsonRecord, update: JsonRecord): void {
  const stored = syncConfigOf(draft);
  const next: SyncConfig = { ...stored };
  if (update.enabled !== undefined) next.enabled = update.enabled === true;
  writeInterval(next, update);
  writePrimary(next, stored, update);
  writeSubordinates(next, stored, update);
  writeOptions(next, update);
  const host = isJsonRecord(draft.stackd) ? draft.stackd : (draft.stackd = {});
  const written: JsonRecord = isJsonRecord(host.sync) ? host.sync : {};
  host.sync = { ...written, ...next };
}

export const seerrSyncView: ConfigView = { path: ['seerr_sync'], read, write };
