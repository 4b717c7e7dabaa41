/** The payload builder of each destination kind. */
import { apprisePayload } from './apprise.js';
import { discordPayload } from './discord.js';
import { ntfyPayload } from './ntfy.js';
import type { PayloadBuilder } from './types.js';
import { webhookPayload } from './webhook.js';

export const PAYLOADS: Readonly<
  Record<'webhook' | 'discord' | 'ntfy' | 'apprise', PayloadBuilder>
> = {
  webhook: webhookPayload,
  discord: discordPayload,
  ntfy: ntfyPayload,
  apprise: apprisePayload,
};

export type { OutboundMessage, OutboundRequest } from './types.js';
