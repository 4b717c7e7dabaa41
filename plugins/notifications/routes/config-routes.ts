/** GET and POST /notifications/config, GET /notifications/events. */
import {
  NOTABLE_EVENT_TYPES,
  NOTABLE_SEVERITIES,
  defineRoute,
  derivedFromStack,
  type JsonRecord,
  type OutboundClient,
  type StackConfig,
} from '../../../sdk/index.js';
import { EventsBody, Errors, PublicConfig, SaveConfigBody } from '../schemas.js';
import {
  currentSettings,
  enabledProcessNames,
  mergeSettings,
  publicSettings,
} from '../settings.js';

export function getConfigRoute(stack: StackConfig) {
  // Made again only when the document changes (a copy of the whole document per request was
  // most of the route's cost at a thousand processes); core then reuses its JSON as well.
  const view = derivedFromStack(stack, (document) =>
    publicSettings(currentSettings(document), enabledProcessNames(document)),
  );
  return defineRoute({
    method: 'GET',
    path: '/notifications/config',
    summary: 'Notification settings, with destination URLs and headers hidden',
    tags: ['notifications'],
    capability: 'notifications',
    schema: { response: PublicConfig },
    handler: () => view(),
  });
}

export function saveConfigRoute(
  stack: StackConfig,
  onSaved: () => void,
  outbound: Pick<OutboundClient, 'checkUrl'>,
) {
  return defineRoute({
    method: 'POST',
    path: '/notifications/config',
    summary: 'Save the notification settings (stackd.notifications, persisted)',
    description:
      'Answers the saved settings as GET shows them. 400 naming the field for invalid settings or a service that is not enabled.',
    tags: ['notifications'],
    capability: 'notifications',
    schema: { body: SaveConfigBody, response: { 200: PublicConfig, ...Errors.badRequest } },
    handler: async ({ body }) => {
      const document = stack.read();
      const enabled = enabledProcessNames(document);
      const next = mergeSettings(currentSettings(document), body.config, enabled, (url, field) =>
        outbound.checkUrl(url, field),
      );
      await stack.update(
        (draft) => {
          const host = (draft.stackd ??= {}) as JsonRecord;
          host.notifications = next;
        },
        { persist: true },
      );
      onSaved();
      return publicSettings(next, enabled);
    },
  });
}

export function eventsRoute() {
  return defineRoute({
    method: 'GET',
    path: '/notifications/events',
    summary: 'Event types and severities notifications can carry',
    tags: ['notifications'],
    capability: 'notifications',
    schema: { response: EventsBody },
    handler: () => ({ event_types: [...NOTABLE_EVENT_TYPES], severities: [...NOTABLE_SEVERITIES] }),
  });
}
