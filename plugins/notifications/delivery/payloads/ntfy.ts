/**
 * ntfy: POST the body as text to the topic URL, with the title, a priority from the severity and
 * tags in headers (UTF-8 header values are not portable: the title is sent as RFC 2047 text).
 */
import type { PayloadBuilder } from './types.js';

const PRIORITY: Record<string, string> = { info: '3', success: '3', warning: '4', critical: '5' };
const TAGS: Record<string, string> = {
  info: 'information_source',
  success: 'white_check_mark',
  warning: 'warning',
  critical: 'rotating_light',
};

function headerText(text: string): string {
  // ASCII as is; anything else as an encoded word, which ntfy decodes.
  return /^[\x20-\x7e]*$/.test(text)
    ? text
    : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

export const ntfyPayload: PayloadBuilder = (url, message) => ({
  url,
  headers: {
    'content-type': 'text/plain; charset=utf-8',
    title: headerText(message.title.slice(0, 250)),
    priority: PRIORITY[message.severity] ?? '3',
    tags: [TAGS[message.severity] ?? 'bell', message.event_type.replace(/[^\w.-]/g, '_')].join(','),
  },
  body: message.body,
});
