/**
 * Redaction, written once for every plugin (docs/decisions.md §15, §16): secrets never reach a log file,
 * a stream, a response, a notification or an AI bundle.
 *
 * Two views of the same rule: `redactLine`/`redactText` scrub free text (log lines, error
 * messages); `redactConfig`/`restoreSecrets` handle JSON values by key path (GET /config shows
 * secrets as `[REDACTED]`, and a posted-back blank or redacted value keeps the stored secret).
 */
import { isCommandKey, redactArguments, redactCommandString } from './argument-redaction.js';
import { isJsonRecord, type JsonRecord } from './config.js';
import { normalizeName as normalize, isSecretName } from './secret-names.js';

/** What a redacted value becomes. */
export const REDACTED = '[REDACTED]';

/** Names whose value is a secret in `name=value`, `name: value` and `"name": "value"` forms. */
const SECRET_NAME =
  '(?:api[ _-]?key|apikey|api[ _-]?token|auth[ _-]?password|password|passwd|pwd|secret[ _-]?key|' +
  'client[ _-]?secret|secret|auth[ _-]?token|access[ _-]?token|refresh[ _-]?token|id[ _-]?token|' +
  'sentry[ _-]?key|private[ _-]?key|token|cookie|set-cookie|x-api-key|x-auth-token|x-plex-token)';

/** Headers whose whole value is a credential: everything after the colon goes. */
const HEADER_LINE =
  /(?<![\w"'-])(set-cookie|cookie|proxy-authorization|authorization|x-api-key|x-auth-token|x-plex-token)(\s*:[ \t]*)(?!\[REDACTED\])(?=\S)[^\r\n]*/gi;

/** `Authorization=Bearer xyz` and friends (the header written as an assignment or in JSON). */
const AUTH_SCHEME =
  /((?:proxy-)?authorization["']?\s*[=:]\s*["']?(?:bearer|basic|token|digest)\s+)(?!\[REDACTED\])[^\s"',}\]]+/gi;

/** A bare bearer credential anywhere (`curl -H "... Bearer abc"`). */
const BEARER = /(\bbearer\s+)(?!\[REDACTED\])([A-Za-z0-9\-._~+/]{8,}=*)/gi;

/** `scheme://user:password@host` and `scheme://token@host`. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@:]+)(?::([^\s/?#@]*))?@/gi;

/** Query-string secrets: `?token=…&apikey=…`. */
const QUERY_SECRET =
  /([?&;](?:api[_-]?key|apikey|auth[_-]?token|access[_-]?token|refresh[_-]?token|id[_-]?token|x-plex-token|auth[_-]?password|password|passwd|secret[_-]?key|client[_-]?secret|secret|token|code|key|sig|signature)=)(?!\[REDACTED\])[^&#\s"']+/gi;

/**
 * `name = value`, `"name": "value"`, `'name' = 'value'`, also as the end of a longer identifier
 * (`GITHUB_TOKEN=…`, `db_password: …`, `"apiKey": "…"`). A quoted value is redacted whole. The
 * match starts at the secret word (not at the identifier) so the engine does not retry a lazy
 * identifier prefix at every position: `tokenizer=` or `max_tokens:` still fail, since the word
 * must be followed by the separator.
 */
const ASSIGNMENT = new RegExp(
  `(${SECRET_NAME}["']?\\s*[:=]\\s*)(?:"(?!\\[REDACTED\\])[^"\\r\\n]*"|'(?!\\[REDACTED\\])[^'\\r\\n]*'|(?![\\["'])[^\\s,;'"\\]}&]+)`,
  'gi',
);

/** Three base64url parts starting with `{"` encoded: a JSON Web Token. */
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

/** Well-known token formats (GitHub, OpenAI-style, Slack, AWS access key ids). */
const KNOWN_TOKENS =
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|sk-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16})\b/g;

/** E-mail addresses (account names are personal data; reference rule 14). */
const EMAIL = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g;

function redactAssignment(match: string, prefix: string): string {
  const value = match.slice(prefix.length);
  const quote = value[0];
  if (quote === '"' || quote === "'") return `${prefix}${quote}${REDACTED}${quote}`;
  return `${prefix}${REDACTED}`;
}

function redactUrlCredentials(
  _match: string,
  scheme: string,
  _user: string,
  password: string | undefined,
): string {
  return password === undefined ? `${scheme}***@` : `${scheme}***:***@`;
}

/** Words a line must contain for a rule to run: most lines carry no secret at all. */
const ASSIGNMENT_WORDS = ['key', 'token', 'pass', 'pwd', 'secret', 'cookie'];
const HEADER_WORDS = ['cookie', 'authoriz', 'x-api-key', 'x-auth-token', 'x-plex-token'];
const KNOWN_TOKEN_WORDS = [
  'ghp_',
  'gho_',
  'ghu_',
  'ghs_',
  'ghr_',
  'github_pat_',
  'sk-',
  'xox',
  'akia',
];

/**
 * Any word or shape some rule needs; a line without one is returned untouched at once. Grouped
 * by first letter: retrying every alternative at every position made a text scan 2-3x slower.
 */
const TRIGGER_SOURCE =
  'k(?:ey)|t(?:oken)|p(?:ass|wd)|s(?:ecret|k-)|c(?:ookie)|a(?:uthoriz|kia)|b(?:earer)|e(?:yj)|' +
  'g(?:h[pousr]_|ithub_pat_)|x(?:ox)|@|[?&;][\\w-]+=';
const TRIGGER = new RegExp(TRIGGER_SOURCE, 'i');

function containsAny(text: string, words: readonly string[]): boolean {
  return words.some((word) => text.includes(word));
}

/**
 * Redact one log line. Order matters: whole-value headers first (their value may contain
 * `key=value` pairs), then URL credentials (before e-mails, since `user@host` looks like one).
 * Each rule runs only when the line holds the words it needs: cheap `includes` checks keep a
 * plain line at well under a microsecond, where running every pattern cost several.
 */
export function redactLine(line: string): string {
  if (!TRIGGER.test(line)) return line;
  const lower = line.toLowerCase();
  const hasAt = lower.includes('@');
  const hasAssignment = lower.includes('=') || lower.includes(':');
  let result = line;
  if (containsAny(lower, HEADER_WORDS)) {
    result = result.replace(HEADER_LINE, `$1$2${REDACTED}`);
    result = result.replace(AUTH_SCHEME, `$1${REDACTED}`);
  }
  if (lower.includes('bearer')) result = result.replace(BEARER, `$1${REDACTED}`);
  if (hasAt && lower.includes('://'))
    result = result.replace(URL_CREDENTIALS, redactUrlCredentials);
  if (lower.includes('=') && /[?&;]/.test(lower))
    result = result.replace(QUERY_SECRET, `$1${REDACTED}`);
  if (hasAssignment && containsAny(lower, ASSIGNMENT_WORDS))
    result = result.replace(ASSIGNMENT, redactAssignment);
  if (lower.includes('eyj')) result = result.replace(JWT, REDACTED);
  if (containsAny(lower, KNOWN_TOKEN_WORDS)) result = result.replace(KNOWN_TOKENS, REDACTED);
  if (hasAt) result = result.replace(EMAIL, REDACTED);
  return result;
}

/** The trigger, searched through a whole text (no rule's shape spans a line break). */
const TRIGGER_IN_TEXT = new RegExp(TRIGGER_SOURCE, 'gi');

/**
 * The trigger for lower-cased text: case folding per character made the scan of a 32 KiB log
 * piece 0.10 ms; lower-casing it first (0.02 ms) and scanning without folding 0.03 ms.
 */
const TRIGGER_IN_LOWER_TEXT = new RegExp(TRIGGER_SOURCE, 'g');

/**
 * Redact every line of a multi-line text (line breaks kept as they are). The text is searched
 * once for the trigger and only the lines it is found in go through {@link redactLine}: a log
 * tail of thousands of plain lines costs one regex scan instead of a callback and a copy per
 * line (measured on a 128 KiB tail of plain lines: GET /logs p50 8.4–8.9 → 6.6–7.9 ms; the
 * redaction itself then 0.43 ms, and 0.2 ms with the lower-cased scan).
 */
export function redactText(text: string): string {
  const lower = text.toLowerCase();
  // Lower-casing keeps every position unless a character grows (`İ`): then scan the text itself.
  const [trigger, scanned] =
    lower.length === text.length ? [TRIGGER_IN_LOWER_TEXT, lower] : [TRIGGER_IN_TEXT, text];
  trigger.lastIndex = 0;
  let found = trigger.exec(scanned);
  if (found === null) return text;
  const parts: string[] = [];
  let copied = 0;
  while (found !== null) {
    const at = found.index;
    const start = Math.max(text.lastIndexOf('\n', at), text.lastIndexOf('\r', at)) + 1;
    const end = lineEnd(text, at);
    parts.push(text.slice(copied, start), redactLine(text.slice(start, end)));
    copied = end;
    trigger.lastIndex = end;
    found = trigger.exec(scanned);
  }
  parts.push(text.slice(copied));
  return parts.join('');
}

/** Where the line holding `at` ends (its line break, or the end of the text). */
function lineEnd(text: string, at: number): number {
  const lf = text.indexOf('\n', at);
  const cr = text.indexOf('\r', at);
  if (lf === -1) return cr === -1 ? text.length : cr;
  return cr === -1 ? lf : Math.min(lf, cr);
}

// ---- JSON values by key path ----
/**
 * Secrets in the configuration are write-only (docs/decisions.md §16). GET /config shows a redacted copy:
 * values of secret-named keys (API keys, tokens, passwords, secrets, cookies, webhooks), every
 * header value, notification destination URLs, and credentials inside any URL. When a client
 * posts such a value back unchanged (redacted) or blank, the stored secret is kept.
 */

const HEADER_KEY = /headers$/;
/** Ancestors under which a `url` is a credential (a Discord or Slack webhook URL is its secret). */
const URL_SECRET_PARENTS = new Set(['destinations', 'notifications', 'webhooks']);
const URL_CREDENTIALS_PREFIX = /^([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@:]+)(:[^\s/?#@]*)?@/i;

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
  if (isSecretName(name)) return true;
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
  const keys = keysOf(path);
  const shown = isCommandKey(keys[keys.length - 1]) ? redactCommandString(value) : value;
  return shown.replace(
    URL_CREDENTIALS_PREFIX,
    (_match, scheme: string, _user: string, password?: string) =>
      password === undefined ? `${scheme}***@` : `${scheme}***:***@`,
  );
}

/** A redacted deep copy of a JSON value found at `path` (`[]` for the whole document). */
export function redactConfig<T>(value: T, path: readonly string[] = []): T {
  if (typeof value === 'string') return redactString(value, path) as T;
  if (Array.isArray(value)) {
    // Command arrays: a secret flag's value is the next item (`--password`, `value`).
    const items = isCommandKey(path[path.length - 1]) ? redactArguments(value) : value;
    return items.map((item: unknown, index) => redactConfig(item, [...path, String(index)])) as T;
  }
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
    const storedItems: unknown[] = Array.isArray(stored) ? stored : [];
    // A command item echoed back as shown (`--password`, `[REDACTED]`) keeps the stored one.
    const shownItems = isCommandKey(path[path.length - 1]) ? redactArguments(storedItems) : null;
    return posted.map((item: unknown, index) =>
      shownItems !== null && item === shownItems[index] && typeof item === 'string'
        ? storedItems[index]
        : restoreSecrets(item, storedItems[index], [...path, String(index)]),
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

// ---- known secret values ----

/**
 * Every secret string of a JSON value (the strings `redactConfig` would hide), at least
 * `minLength` characters long so that short values such as `on` never scrub ordinary text.
 * Walks with an explicit stack: a deep document cannot overflow the call stack.
 */
export function collectSecretValues(value: unknown, minLength = 6): string[] {
  const found = new Set<string>();
  const stack: Array<{ value: unknown; path: readonly string[] }> = [{ value, path: [] }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const current = item.value;
    if (typeof current === 'string') {
      if (current.length >= minLength && current !== REDACTED && isSecretPath(item.path))
        found.add(current);
    } else if (Array.isArray(current)) {
      current.forEach((child: unknown, index) =>
        stack.push({ value: child, path: [...item.path, String(index)] }),
      );
    } else if (isJsonRecord(current)) {
      for (const [key, child] of Object.entries(current))
        stack.push({ value: child, path: [...item.path, key] });
    }
  }
  return [...found];
}

/**
 * Replace every occurrence of the given secret values in `text` (longest first, so a key that
 * contains another is removed whole), then apply the text rules of {@link redactText}. Use it
 * for anything built from logs or configs that leaves the process: notifications, AI bundles.
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length))
    if (secret !== '' && result.includes(secret)) result = result.split(secret).join(REDACTED);
  return redactText(result);
}
