/** POST /notifications/test and /send, GET and DELETE /notifications/history. */
import { defineRoute } from '../../../sdk/index.js';
import type { NotificationService } from '../notification-service.js';
import {
  DeletedBody,
  Delivery,
  Errors,
  HistoryBody,
  HistoryQuery,
  SendBody,
  SendResult,
  TestBody,
} from '../schemas.js';

export function testRoute(service: NotificationService) {
  return defineRoute({
    method: 'POST',
    path: '/notifications/test',
    summary: 'Send a test to one destination and wait for the outcome (up to 15 s)',
    description:
      'Bypasses the global switch, the destination switch, filters and cooldowns, so a user can check a destination. Answers the delivery record. 400 for an unknown destination or one without a URL; 503 while storage is locked.',
    tags: ['notifications'],
    capability: 'notifications',
    schema: {
      body: TestBody,
      response: { 200: Delivery, ...Errors.badRequest, ...Errors.unavailable },
    },
    handler: ({ body }) => service.test(body.destination_id, body.title, body.body),
  });
}

export function sendRoute(service: NotificationService) {
  return defineRoute({
    method: 'POST',
    path: '/notifications/send',
    summary: 'Send a message now',
    description:
      'Bypasses the global switch, filters and cooldowns but not a disabled destination (a switched-off destination stays off); without destination_ids every enabled destination with a URL. 400 for an unknown severity or no matching destination; 503 while storage is locked.',
    tags: ['notifications'],
    capability: 'notifications',
    schema: {
      body: SendBody,
      response: { 200: SendResult, ...Errors.badRequest, ...Errors.unavailable },
    },
    handler: ({ body }) => service.send(body.title, body.body, body.severity, body.destination_ids),
  });
}

export function historyRoute(service: NotificationService) {
  return defineRoute({
    method: 'GET',
    path: '/notifications/history',
    summary: 'Delivery history, newest first (never a URL or header)',
    tags: ['notifications'],
    capability: 'notifications',
    schema: { query: HistoryQuery, response: { 200: HistoryBody, ...Errors.unavailable } },
    handler: ({ query }) => ({
      items: service.history(query.limit, query.status, query.event_type),
    }),
  });
}

export function clearHistoryRoute(service: NotificationService) {
  return defineRoute({
    method: 'DELETE',
    path: '/notifications/history',
    summary: 'Delete completed, failed and suppressed deliveries (queued and retrying stay)',
    tags: ['notifications'],
    capability: 'notifications',
    schema: { response: { 200: DeletedBody, ...Errors.unavailable } },
    handler: () => ({ deleted: service.clearHistory() }),
  });
}
