/**
 * Log line redaction (DECISIONS #15, reference §2.18): secrets are replaced before a line reaches
 * a log file, the WebSocket stream or a GET /logs chunk. Every rule is case-insensitive and leaves
 * an already-redacted value alone, so redacting twice (writer, then reader) changes nothing.
 */

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
 * (`GITHUB_TOKEN=…`, `db_password: …`, `"apiKey": "…"`). A quoted value is redacted whole.
 */
const ASSIGNMENT = new RegExp(
  `((?<![\\w.-])["']?[\\w.-]*?${SECRET_NAME}["']?\\s*[:=]\\s*)(?:"(?!\\[REDACTED\\])[^"\\r\\n]*"|'(?!\\[REDACTED\\])[^'\\r\\n]*'|(?![\\["'])[^\\s,;'"\\]}&]+)`,
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

/**
 * Redact one log line. Order matters: whole-value headers first (their value may contain
 * `key=value` pairs), then URL credentials (before e-mails, since `user@host` looks like one).
 */
export function redactLine(line: string): string {
  // Most lines carry no secret; these cheap checks skip the rules that cannot match.
  if (!/[:=@]|eyJ|bearer|gh[pousr]_|github_pat_|sk-|xox|AKIA/i.test(line)) return line;
  let result = line.replace(HEADER_LINE, `$1$2${REDACTED}`);
  result = result.replace(AUTH_SCHEME, `$1${REDACTED}`);
  result = result.replace(BEARER, `$1${REDACTED}`);
  result = result.replace(URL_CREDENTIALS, redactUrlCredentials);
  result = result.replace(QUERY_SECRET, `$1${REDACTED}`);
  result = result.replace(ASSIGNMENT, redactAssignment);
  result = result.replace(JWT, REDACTED);
  result = result.replace(KNOWN_TOKENS, REDACTED);
  result = result.replace(EMAIL, REDACTED);
  return result;
}

/** Redact every line of a multi-line text (line breaks kept as they are). */
export function redactText(text: string): string {
  if (text === '') return text;
  return text.replace(/[^\r\n]+/g, redactLine);
}
