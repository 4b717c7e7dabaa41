/**
 * GET /metrics/history/storage and POST /metrics/history/migrate: where history is kept, in the
 * status shape DUMB's Metrics settings read. stackd keeps history in one SQLite file; it has no
 * PostgreSQL mirror and never wrote JSONL files, and says so in the same fields.
 */
import { statSync } from 'node:fs';
import { Nullable, Type, defineRoute } from '../../../sdk/index.js';
import type { MetricsFeedService } from '../metrics-feed-service.js';

const SqliteStatus = Type.Object({
  path: Type.String(),
  samples: Type.Integer(),
  compressed_bytes: Type.Integer({ description: 'Stored (deflated) snapshot bytes' }),
  raw_bytes: Nullable(Type.Integer({ description: 'Not tracked: null' })),
  compression_ratio: Nullable(Type.Number({ description: 'Not tracked: null' })),
  file_bytes: Type.Integer({ description: 'The database file with its journal' }),
  oldest_timestamp: Nullable(Type.Number({ description: 'Epoch seconds' })),
  newest_timestamp: Nullable(Type.Number({ description: 'Epoch seconds' })),
});

const StorageStatus = Type.Object({
  history_enabled: Type.Boolean(),
  configured_provider: Type.Literal('sqlite'),
  active_provider: Type.Literal('sqlite'),
  fallback_active: Type.Boolean({
    description: 'Always false: there is nothing to fall back from',
  }),
  last_error: Nullable(Type.String()),
  last_postgresql_success: Type.Null(),
  sqlite: SqliteStatus,
  postgresql: Type.Null({ description: 'stackd has no PostgreSQL history' }),
  legacy_jsonl: Type.Object({
    files: Type.Integer(),
    bytes: Type.Integer(),
    migration: Nullable(Type.String()),
    preserved: Type.Boolean(),
  }),
});

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
      query: Type.Object({ probe_postgresql: Type.Optional(Type.Boolean()) }),
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
      query: Type.Object({ force: Type.Optional(Type.Boolean()) }),
      response: Type.Object({
        completed: Type.Boolean(),
        files: Type.Integer(),
        samples: Type.Integer(),
        skipped: Type.Integer(),
      }),
    },
    handler: () => ({ completed: true, files: 0, samples: 0, skipped: 0 }),
  });
}
