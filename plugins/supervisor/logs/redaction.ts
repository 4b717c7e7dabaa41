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

/** Any word or shape some rule needs; a line without one is returned untouched at once. */
const TRIGGER =
  /key|token|pass|pwd|secret|cookie|authoriz|bearer|eyj|gh[pousr]_|github_pat_|sk-|xox|akia|@|[?&;][\w-]+=/i;

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

/** Redact every line of a multi-line text (line breaks kept as they are). */
export function redactText(text: string): string {
  if (text === '') return text;
  return text.replace(/[^\r\n]+/g, redactLine);
}
