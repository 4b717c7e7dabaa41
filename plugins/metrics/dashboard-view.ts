/**
 * `dumb.metrics`: the metrics settings in the layout DUMB's dashboard edits (its Metrics
 * settings read `GET /config` at `dumb.metrics` and save `POST /config {updates: {dumb: {metrics}}}`),
 * stored in `stackd.metrics`. What stackd does not have (PostgreSQL history, JSONL files,
 * database health, Plex status) is shown as stackd behaves and refused when turned on, naming
 * the field; `history_max_file_mb` is accepted and ignored (history is one SQLite file, bounded
 * by `history_max_total_mb`, and the dashboard hides the field when `metrics_history_storage` is on).
 */
import {
  InputError,
  checkValue,
  isJsonRecord,
  withDefaults,
  type ConfigView,
  type JsonRecord,
} from '../../sdk/index.js';
import { MetricsConfig } from './config.js';
import { METRICS_CONFIG_INVALID } from './errors.js';

const field = (path: string) => `updates.dumb.metrics.${path}`;

const refuse = (path: string, message: string) =>
  new InputError(METRICS_CONFIG_INVALID, `${path}: ${message}`, { field: field(path) });

/** The stored slice as written, or {} when it is missing or invalid. */
function storedSlice(document: Readonly<JsonRecord>): JsonRecord {
  const host = document.stackd;
  const slice = isJsonRecord(host) ? host.metrics : undefined;
  return isJsonRecord(slice) ? structuredClone(slice) : {};
}

/** The slice with defaults, as the plugin reads it (defaults alone when the stored one is invalid). */
export function metricsConfigOf(document: Readonly<JsonRecord>): MetricsConfig {
  const slice = withDefaults(MetricsConfig, storedSlice(document));
  return checkValue(MetricsConfig, slice).length === 0
    ? (slice as MetricsConfig)
    : (withDefaults(MetricsConfig, {}) as MetricsConfig);
}

/** Where stackd keeps history (shown read-only). */
export interface HistoryLocation {
  readonly dir: string;
  readonly sqlitePath: string;
}

const OFF_FEATURES = {
  database_health: 'stackd has no database health collector',
  plex_status: 'stackd has no Plex status collector',
} as const;

export function metricsDashboardView(location: HistoryLocation): ConfigView {
  const storage = () => ({
    provider: 'sqlite',
    sqlite_path: location.sqlitePath,
    migrate_jsonl: false,
  });
  return {
    path: ['dumb', 'metrics'],
    read(document) {
      const config = metricsConfigOf(document);
      return {
        filesystem_paths: config.filesystem_paths,
        network_interfaces: config.network_interfaces,
        history_enabled: config.history_enabled,
        history_interval_sec: config.history_interval_sec,
        history_retention_days: config.history_retention_days,
        history_max_file_mb: config.history_max_mb,
        history_max_total_mb: config.history_max_mb,
        history_dir: location.dir,
        storage: storage(),
        database_health: {
          enabled: false,
          interval_sec: 60,
          log_tail_bytes: 262_144,
          services: {},
        },
        plex_status: { enabled: false, interval_sec: 300 },
      };
    },
    write(draft, update) {
      const next = storedSlice(draft);
      const copy = (from: string, to = from) => {
        if (update[from] !== undefined) next[to] = update[from];
      };
      copy('filesystem_paths');
      copy('network_interfaces');
      copy('history_enabled');
      copy('history_interval_sec');
      copy('history_retention_days');
      copy('history_max_total_mb', 'history_max_mb');
      refuseUnsupported(update, location, storage());
      const [failure] = checkValue(MetricsConfig, withDefaults(MetricsConfig, next));
      if (failure !== undefined) {
        const name = failure.field === 'history_max_mb' ? 'history_max_total_mb' : failure.field;
        throw refuse(name, failure.message);
      }
      if (Array.isArray(next.filesystem_paths))
        next.filesystem_paths.forEach((path, index) => {
          if (typeof path !== 'string' || !path.trim().startsWith('/'))
            throw refuse(`filesystem_paths.${index}`, 'must be an absolute path');
        });
      const host = isJsonRecord(draft.stackd) ? draft.stackd : (draft.stackd = {});
      host.metrics = next;
    },
  };
}

function refuseUnsupported(
  update: JsonRecord,
  location: HistoryLocation,
  shown: { provider: string; sqlite_path: string },
): void {
  if (update.history_dir !== undefined && update.history_dir !== location.dir)
    throw refuse(
      'history_dir',
      `stackd keeps metrics history in ${location.dir}; it cannot be moved here`,
    );
  const storage = update.storage;
  if (storage !== undefined) {
    if (!isJsonRecord(storage)) throw refuse('storage', 'must be an object');
    if (storage.provider !== undefined && storage.provider !== shown.provider)
      throw refuse('storage.provider', 'stackd stores metrics history in SQLite only');
    if (storage.sqlite_path !== undefined && storage.sqlite_path !== shown.sqlite_path)
      throw refuse('storage.sqlite_path', `stackd's history database is ${shown.sqlite_path}`);
    if (storage.migrate_jsonl === true)
      throw refuse(
        'storage.migrate_jsonl',
        'stackd never wrote JSONL history; there is nothing to import',
      );
  }
  for (const [key, reason] of Object.entries(OFF_FEATURES)) {
    const section = update[key];
    if (isJsonRecord(section) && section.enabled === true) throw refuse(`${key}.enabled`, reason);
  }
}
