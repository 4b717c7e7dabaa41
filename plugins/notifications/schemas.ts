/** Request and response schemas of the notifications routes. */
import { Type } from '../../sdk/index.js';

export const EventsResponse = Type.Object({
  event_types: Type.Array(Type.String(), { description: 'Event types the backend can raise' }),
  severities: Type.Array(Type.String(), { description: 'Severity values, lowest rank first' }),
});
