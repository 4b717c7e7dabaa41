/** Request and response schemas of the notifications routes. */
import { Type } from '../../sdk/index.js';

export const EventsResponse = Type.Object({
  event_types: Type.Array(Type.String(), { description: 'Event types the backend can raise' }),
  severities: Type.Array(Type.String(), { description: 'Severity values, lowest rank first' }),
});

/** A destination as GET shows it: url and headers replaced by booleans. */
export const PublicDestination = Type.Object(
  {
    id: Type.String(),
    kind: Type.String(),
    enabled: Type.Boolean(),
    url_configured: Type.Boolean(),
    headers_configured: Type.Boolean(),
    service_names: Type.Array(Type.String()),
  },
  { additionalProperties: true },
);

export const ConfigResponse = Type.Object(
  {
    enabled: Type.Boolean(),
    monitor_interval_sec: Type.Integer(),
    history_retention_days: Type.Integer(),
    max_attempts: Type.Integer(),
    retry_base_sec: Type.Integer(),
    destinations: Type.Array(PublicDestination),
  },
  { additionalProperties: true },
);
