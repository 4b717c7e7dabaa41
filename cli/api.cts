/**
 * The HTTP side of the client: node:http against the host's API, the bearer token
 * (`--token` / `STACKD_TOKEN`, else the pair of `stackd login`, refreshed once on a 401 as the
 * API's clients do), and the mapping of failures to exit codes.
 */
import { CliError, EXIT } from './errors.cjs';
import { loadTokens, saveTokens, type TokenPair } from './credentials.cjs';
import { exchange, type RawAnswer } from './http-request.cjs';

/** Requests that should answer at once give up after this long (the host is not reachable). */
export const QUICK_TIMEOUT_MS = 8000;

/** One answer of the API. */
export interface ApiResponse {
  readonly status: number;
  readonly body: unknown;
  /** The ETag header (GET /config's generation), when the answer has one. */
  readonly etag?: string | undefined;
}

/** Options of one request. */
export interface RequestOptions {
  readonly query?: Record<string, string | number | boolean | undefined>;
  readonly body?: unknown;
  /** undefined: {@link QUICK_TIMEOUT_MS}; null: no limit (start/stop wait for the outcome). */
  readonly timeoutMs?: number | null;
  /** Extra request headers (e.g. `if-match`). */
  readonly headers?: Record<string, string>;
}

/** The host's error message (`detail`), else the status. */
export function detailOf(response: ApiResponse): string {
  const body = response.body;
  if (typeof body === 'object' && body !== null && 'detail' in body) {
    const detail = body.detail;
    if (typeof detail === 'string') return detail;
    return JSON.stringify(detail);
  }
  return `HTTP ${response.status}`;
}

export class ApiClient {
  private tokens: TokenPair | undefined;
  private readonly fixedToken: string | undefined;

  constructor(
    readonly baseUrl: string,
    token: string | undefined,
  ) {
    this.fixedToken = token === undefined || token === '' ? undefined : token;
    this.tokens = this.fixedToken === undefined ? loadTokens(baseUrl) : undefined;
  }

  /** host:port, for messages. */
  get hostPort(): string {
    return new URL(this.baseUrl).host;
  }

  /** The access token requests carry, if any. */
  accessToken(): string | undefined {
    return this.fixedToken ?? this.tokens?.access_token;
  }

  /** Any answer but 401/403 (refreshed first) comes back; unreachable and unauthorised throw. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const first = await this.send(method, path, options);
    if (first.status !== 401) return this.authorised(first);
    if (!(await this.refresh())) return this.authorised(first);
    return this.authorised(await this.send(method, path, options));
  }

  /** Like {@link request}, but a non-2xx answer is a failed action (exit 1) with its detail. */
  async call(method: string, path: string, options: RequestOptions = {}): Promise<unknown> {
    const response = await this.request(method, path, options);
    if (response.status >= 200 && response.status < 300) return response.body;
    throw new CliError(`${detailOf(response)} (HTTP ${response.status})`, EXIT.failed);
  }

  /** Swap the stored refresh token for a new pair; false when there is none or it is refused. */
  async refresh(): Promise<boolean> {
    const refreshToken = this.tokens?.refresh_token;
    if (this.fixedToken !== undefined || refreshToken === undefined) return false;
    const answer = await this.send('POST', '/api/auth/refresh', {
      body: { refresh_token: refreshToken },
    });
    if (answer.status !== 200) return false;
    const pair = answer.body as TokenPair;
    this.tokens = pair;
    saveTokens(this.baseUrl, pair);
    return true;
  }

  private authorised(response: ApiResponse): ApiResponse {
    if (response.status === 401) {
      const fix =
        this.fixedToken !== undefined
          ? 'the token given with --token/STACKD_TOKEN was refused; pass a valid access token'
          : `run \`stackd login${this.baseUrl === 'http://127.0.0.1:8000' ? '' : ` --url ${this.baseUrl}`}\``;
      throw new CliError(`not authorised at ${this.hostPort}: ${fix}`, EXIT.unauthorised);
    }
    if (response.status === 403)
      throw new CliError(`forbidden at ${this.hostPort}: ${detailOf(response)}`, EXIT.unauthorised);
    return response;
  }

  /** One request with the current token, answered as it is (no refresh, no exit-code mapping). */
  async send(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(options.query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    const token = this.accessToken();
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const timeout = options.timeoutMs === undefined ? QUICK_TIMEOUT_MS : options.timeoutMs;
    let response: RawAnswer;
    try {
      response = await exchange({
        method,
        url,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        timeoutMs: timeout === null ? undefined : timeout,
      });
    } catch (error) {
      throw this.unreachable(error);
    }
    const text = response.text;
    let body: unknown = text;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, body, etag: response.etag };
  }

  /** The one-line "cannot reach" error, naming host:port and the fix. */
  unreachable(error: unknown): CliError {
    const timedOut =
      error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const code = timedOut
      ? 'no answer'
      : typeof error === 'object' && error !== null && 'code' in error
        ? String(error.code)
        : 'error';
    return new CliError(
      `cannot reach stackd at ${this.baseUrl} (${this.hostPort}, ${code}) — is it running? ` +
        'start it with `stackd` or pass --url',
      EXIT.unreachable,
    );
  }
}
