/**
 * Secrets in the configuration are write-only (DECISIONS #16). GET /config shows a redacted copy:
 * values of secret-named keys (API keys, tokens, passwords, secrets, cookies, webhooks), every
 * header value, notification destination URLs, and credentials inside any URL. When a client
 * posts such a value back unchanged (redacted) or blank, the stored secret is kept.
 */
import { isJsonRecord } from '../../../sdk/index.js';
import type { JsonRecord } from '../../../sdk/index.js';

/** What a redacted value becomes. */
export const REDACTED = '[REDACTED]';

const SECRET_KEY =
  /(?:apikey|apitoken|token|password|passwd|passphrase|secret|webhook|authorization|cookie|credential|privatekey|sessionid)/;
const HEADER_KEY = /headers$/;
/** Ancestors under which a `url` is a credential (a Discord or Slack webhook URL is its secret). */
const URL_SECRET_PARENTS = new Set(['destinations', 'notifications', 'webhooks']);
const URL_CREDENTIALS = /^([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@:]+)(:[^\s/?#@]*)?@/i;

function normalize(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Keys named by `path` (array indexes skipped). */
function keysOf(path: readonly string[]): string[] {
  return path.filter((segment) => !/^\d+$/.test(segment));
}

/** True when the string at `path` (from the document root) is a secret as a whole. */
export function isSecretPath(path: readonly string[]): boolean {
  const keys = keysOf(path);
  const key = keys[keys.length - 1];
  if (key === undefined) return false;
  const name = normalize(key);
  if (SECRET_KEY.test(name)) return true;
  const parent = keys[keys.length - 2];
  // Every value of a headers object (`headers`, `probe_headers`) may carry a credential.
  if (parent !== undefined && HEADER_KEY.test(normalize(parent))) return true;
  if (name === 'url' || name.endsWith('url'))
    return keys.slice(0, -1).some((ancestor) => URL_SECRET_PARENTS.has(normalize(ancestor)));
  return false;
}

/** How GET /config shows the string at `path`. */
export function redactString(value: string, path: readonly string[]): string {
  if (value === '') return value;
  if (isSecretPath(path)) return REDACTED;
  return value.replace(
    URL_CREDENTIALS,
    (_match, scheme: string, _user: string, password?: string) =>
      password === undefined ? `${scheme}***@` : `${scheme}***:***@`,
  );
}

/** A redacted deep copy of a JSON value found at `path` (`[]` for the whole document). */
export function redactConfig<T>(value: T, path: readonly string[] = []): T {
  if (typeof value === 'string') return redactString(value, path) as T;
  if (Array.isArray(value))
    return value.map((item: unknown, index) => redactConfig(item, [...path, String(index)])) as T;
  if (isJsonRecord(value)) {
    const copy: JsonRecord = {};
    for (const [key, item] of Object.entries(value)) copy[key] = redactConfig(item, [...path, key]);
    return copy as T;
  }
  return value;
}

/**
 * `posted` (a value a client sends for `path`) with every secret it echoed back replaced by the
 * stored one: a blank or `[REDACTED]` secret, or a string equal to the redacted form of the
 * stored string (a URL with `***` credentials). Everything else is the client's new value.
 */
export function restoreSecrets(posted: unknown, stored: unknown, path: readonly string[]): unknown {
  if (typeof posted === 'string') {
    if (typeof stored !== 'string' || stored === posted) return posted;
    if (isSecretPath(path) && (posted === '' || posted === REDACTED)) return stored;
    return redactString(stored, path) === posted ? stored : posted;
  }
  if (Array.isArray(posted)) {
    const storedItems = Array.isArray(stored) ? stored : [];
    return posted.map((item: unknown, index) =>
      restoreSecrets(item, storedItems[index], [...path, String(index)]),
    );
  }
  if (isJsonRecord(posted)) {
    const storedRecord = isJsonRecord(stored) ? stored : {};
    const result: JsonRecord = {};
    for (const [key, item] of Object.entries(posted))
      result[key] = restoreSecrets(item, storedRecord[key], [...path, key]);
    return result;
  }
  return posted;
}
