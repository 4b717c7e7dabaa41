/** Generic JSON webhook: the event as JSON (`source: "stackd"`). */
import type { PayloadBuilder } from './types.js';

export const webhookPayload: PayloadBuilder = (url, message) => ({
  url,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    source: 'stackd',
    event_id: message.event_id,
    event_type: message.event_type,
    severity: message.severity,
    title: message.title,
    body: message.body,
    service_name: message.service_name,
    timestamp: message.timestamp,
  }),
});
