/**
 * Apprise API bridge: POST `{title, body, type}` to an Apprise API server's notify URL
 * (`http://apprise:8000/notify/<key>` for a stored configuration, or `/notify` with the
 * server's defaults). Apprise types: info, success, warning, failure.
 */
import type { PayloadBuilder } from './types.js';

const TYPES: Record<string, string> = {
  info: 'info',
  success: 'success',
  warning: 'warning',
  critical: 'failure',
};

export const apprisePayload: PayloadBuilder = (url, message) => ({
  url,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    title: message.title,
    body: message.body,
    type: TYPES[message.severity] ?? 'info',
    tag: message.event_type,
  }),
});
