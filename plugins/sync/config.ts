/**
 * The sync plugin's config slice (`stackd.sync`): the primary request manager and the
 * subordinates requests are copied to. Re-read on every configuration change (no restart).
 */
import {
  InputError,
  Type,
  checkValue,
  isJsonRecord,
  type JsonRecord,
  type Static,
} from '../../sdk/index.js';
import { CONFIG_INVALID } from './errors.js';

const Remote = {
  url: Type.String({ description: 'Base URL of the request manager (http/https, no credentials)' }),
  api_key: Type.String({ description: 'API key sent as X-Api-Key (write-only, redacted)' }),
};

export const SyncConfig = Type.Object({
  enabled: Type.Boolean({ default: false, description: 'Run the poll cycle' }),
  primary: Type.Optional(
    Type.Object(Remote, { description: 'The instance requests are copied from' }),
  ),
  subordinates: Type.Array(
    Type.Object({
      label: Type.String({ minLength: 1, description: 'Subordinate id in state and status' }),
      ...Remote,
    }),
    { default: [], description: 'Instances requests are copied to' },
  ),
  internal_subordinates: Type.Array(
    Type.Object({
      process_name: Type.String({
        minLength: 1,
        description: 'A process of this configuration (e.g. a Jellyseerr instance)',
      }),
      api_key: Type.Optional(
        Type.String({ description: "API key (write-only); default: the block's api_key field" }),
      ),
    }),
    {
      default: [],
      description:
        'Subordinates that are processes of this configuration: URL from the block (host, default 127.0.0.1, and port); id internal:<instance name>',
    },
  ),
  poll_interval_seconds: Type.Integer({
    minimum: 5,
    default: 60,
    description: 'Seconds between polls',
  }),
  retry_delay_seconds: Type.Integer({
    minimum: 0,
    default: 300,
    description: 'Seconds before a failed request is retried',
  }),
  sync_4k: Type.Boolean({ default: false, description: 'Also copy 4K requests (is4k true)' }),
  user_mapping: Type.Union([Type.Literal('admin'), Type.Literal('email_match')], {
    default: 'admin',
    description:
      "Who a copied request belongs to on a subordinate: admin (the API key's user), or " +
      "email_match (the subordinate's user with the requester's e-mail, sent as X-API-User; " +
      'the admin when no user matches)',
  }),
});
export type SyncConfig = Static<typeof SyncConfig>;

const AsWritten = Type.Partial(SyncConfig);

function sliceOf(document: Readonly<JsonRecord>): unknown {
  const host = document.stackd;
  return isJsonRecord(host) ? host.sync : undefined;
}

/** Reject a malformed `stackd.sync` slice, naming the field. */
export function validateSyncSlice(candidate: Readonly<JsonRecord>): void {
  const slice = sliceOf(candidate);
  if (slice === undefined) return;
  const [failure] = checkValue(AsWritten, slice);
  if (failure !== undefined)
    throw new InputError(CONFIG_INVALID, `stackd.sync: ${failure.message}`, {
      field: ['stackd', 'sync', failure.field].filter((part) => part !== '').join('.'),
    });
}

/** The slice of a document with defaults applied. */
export function syncConfigOf(document: Readonly<JsonRecord>): SyncConfig {
  const slice = sliceOf(document);
  const written =
    slice !== undefined && checkValue(AsWritten, slice).length === 0
      ? (slice as Partial<SyncConfig>)
      : {};
  return {
    enabled: written.enabled ?? false,
    ...(written.primary ? { primary: written.primary } : {}),
    subordinates: written.subordinates ?? [],
    internal_subordinates: written.internal_subordinates ?? [],
    poll_interval_seconds: written.poll_interval_seconds ?? 60,
    retry_delay_seconds: written.retry_delay_seconds ?? 300,
    sync_4k: written.sync_4k ?? false,
    user_mapping: written.user_mapping ?? 'admin',
  };
}
