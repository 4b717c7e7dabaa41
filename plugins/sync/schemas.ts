/** Wire shapes of the request-sync routes. */
import { Type } from '../../sdk/index.js';

const Counts = Type.Object({ synced: Type.Integer(), failed: Type.Integer() });

export const StatusResponse = Type.Object({
  enabled: Type.Boolean(),
  status: Type.String({ description: 'disabled, initializing or active' }),
  message: Type.Optional(Type.String()),
  last_poll: Type.Optional(Type.String()),
  next_poll: Type.Optional(Type.String()),
  poll_interval_seconds: Type.Optional(Type.Integer()),
  total_requests_tracked: Type.Optional(Type.Integer()),
  total_failed: Type.Optional(Type.Integer()),
  subordinates: Type.Optional(Type.Record(Type.String(), Counts)),
});

const FailedItem = Type.Object({
  fingerprint: Type.String(),
  subordinate: Type.String(),
  media_type: Type.String(),
  tmdb_id: Type.Integer(),
  error: Type.String(),
  failed_at: Type.String(),
});

export const FailedResponse = Type.Object({
  count: Type.Integer(),
  failed_requests: Type.Array(FailedItem),
});

export const StateResponse = Type.Object({
  last_poll_ts: Type.Union([Type.String(), Type.Null()]),
  requests: Type.Record(
    Type.String(),
    Type.Object({
      primary_id: Type.Integer(),
      subordinates: Type.Record(
        Type.String(),
        Type.Object({ id: Type.Integer(), status: Type.Integer(), synced_at: Type.String() }),
      ),
    }),
  ),
  failed: Type.Record(
    Type.String(),
    Type.Object({
      failed_at: Type.String(),
      error: Type.String(),
      media_type: Type.String(),
      tmdb_id: Type.Integer(),
    }),
  ),
});

export const ClearFailedQuery = Type.Object({
  fingerprint: Type.Optional(Type.String({ description: 'Clear only this request' })),
});
export const ClearFailedResponse = Type.Object({ message: Type.String(), cleared: Type.Integer() });

export const TestBody = Type.Object({
  url: Type.String({ description: 'Base URL of the instance to probe' }),
  api_key: Type.String({ description: 'API key (write-only)' }),
});
export const TestResponse = Type.Object({
  ok: Type.Boolean(),
  status: Type.Optional(Type.Object({ version: Type.String() })),
  detail: Type.Optional(Type.String()),
});
