/** `GET /notifications/events`: the event types and severity values the backend supports. */
import { NOTABLE_EVENT_TYPES, NOTABLE_SEVERITIES, defineRoute } from '../../../sdk/index.js';
import { EventsResponse } from '../schemas.js';

/** The route (static data, no storage: stays available when storage is locked, SPEC rule 6). */
export function eventsRoute() {
  return defineRoute({
    method: 'GET',
    path: '/notifications/events',
    summary: 'Supported notification event types and severities',
    description: 'Event types the built-in plugins raise and the severity values, lowest first.',
    tags: ['notifications'],
    schema: { response: EventsResponse },
    handler: () => ({
      event_types: [...NOTABLE_EVENT_TYPES],
      severities: [...NOTABLE_SEVERITIES],
    }),
  });
}
