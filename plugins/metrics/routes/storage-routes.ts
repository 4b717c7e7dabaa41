/**
 * GET /metrics/history/storage and POST /metrics/history/migrate: where history is kept, in the
 * status shape DUMB's Metrics settings read. stackd keeps history in one SQLite file; it has no
 * PostgreSQL mirror and never wrote JSONL files, and says so in the same fields.
 */
import { statSync } from 'node:fs';
import { defineRoute } from '../../../sdk/index.js';
import type { MetricsFeedService } from '../metrics-feed-service.js';
import {
  HistoryMigrateQuery,
  HistoryMigrateResult,
  StorageStatus,
  StorageStatusQuery,
} from '../schemas.js';

function fileBytes(path: string): number {
  let total = 0;
  for (const suffix of ['', '-journal', '-wal']) {
    try {
      total += statSync(path + suffix).size;
    } catch {
      // absent: counts nothing
    }
  }
  return total;
}

const seconds = (ms: number | null) => (ms === null ? null : ms / 1000);

export function historyStorageRoute(feed: MetricsFeedService, sqlitePath: string) {
  return defineRoute({
    method: 'GET',
    path: '/metrics/history/storage',
    summary: 'Where metrics history is stored, how much, and over what time',
    description: '`probe_postgresql` is accepted and ignored: stackd keeps history in SQLite only.',
    tags: ['metrics'],
    schema: {
      query: StorageStatusQuery,
      response: StorageStatus,
    },
    handler: () => {
      const summary = feed.historyStore?.summary();
      return {
        history_enabled: feed.historyActive,
        configured_provider: 'sqlite' as const,
        active_provider: 'sqlite' as const,
        fallback_active: false,
        last_error: null,
        last_postgresql_success: null,
        sqlite: {
          path: sqlitePath,
          samples: summary?.samples ?? 0,
          compressed_bytes: summary?.stored_bytes ?? 0,
          raw_bytes: null,
          compression_ratio: null,
          file_bytes: fileBytes(sqlitePath),
          oldest_timestamp: seconds(summary?.oldest_ms ?? null),
          newest_timestamp: seconds(summary?.newest_ms ?? null),
        },
        postgresql: null,
        legacy_jsonl: { files: 0, bytes: 0, migration: null, preserved: true },
      };
    },
  });
}

export function historyMigrateRoute() {
  return defineRoute({
    method: 'POST',
    path: '/metrics/history/migrate',
    summary: 'Import JSONL history (there is none: stackd never wrote any)',
    description:
      "Answers an import that found nothing, in the shape DUMB's Metrics settings read; `force` is accepted.",
    tags: ['metrics'],
    schema: {
      query: HistoryMigrateQuery,
      response: HistoryMigrateResult,
    },
    handler: () => ({ completed: true, files: 0, samples: 0, skipped: 0 }),
  });
}
