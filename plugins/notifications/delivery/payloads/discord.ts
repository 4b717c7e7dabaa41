/**
 * Discord webhook: one embed (title ≤ 256, description ≤ 4096 characters) coloured by severity,
 * the event type and service in the footer.
 */
import { isoTime } from '../../../../sdk/index.js';
import type { PayloadBuilder } from './types.js';

const COLOURS: Record<string, number> = {
  info: 0x3498db,
  success: 0x2ecc71,
  warning: 0xf1c40f,
  critical: 0xe74c3c,
};

export const discordPayload: PayloadBuilder = (url, message) => ({
  url,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    username: 'stackd',
    embeds: [
      {
        title: message.title.slice(0, 256),
        description: message.body.slice(0, 4096),
        color: COLOURS[message.severity] ?? COLOURS.info,
        timestamp: isoTime(message.timestamp * 1000),
        footer: {
          text: `${message.event_type}${message.service_name === null ? '' : ` · ${message.service_name}`}`.slice(
            0,
            2048,
          ),
        },
      },
    ],
  }),
});
