/** `GET /notifications/config`: the settings with destination secrets removed. */
import { defineRoute, type JsonRecord } from '../../../sdk/index.js';
import { publicConfig } from '../public-config.js';
import { ConfigResponse } from '../schemas.js';

/** The route; reads the live document (no storage: available while storage is locked). */
export function getConfigRoute(readDocument: () => JsonRecord) {
  return defineRoute({
    method: 'GET',
    path: '/notifications/config',
    summary: 'Notification settings',
    description:
      'Global settings and destinations; each destination shows url_configured and headers_configured instead of its url and headers.',
    tags: ['notifications'],
    schema: { response: ConfigResponse },
    handler: () => publicConfig(readDocument()),
  });
}
