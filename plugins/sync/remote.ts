/**
 * A request manager's HTTP API through the plugin's outbound client: keep-alive connections
 * (4 per remote) on which the outbound policy checked every address and redirect.
 */
import type { OutboundClient } from '../../sdk/index.js';

export interface RemoteRequest {
  id: number;
  mediaType: string;
  tmdbId: number;
  is4k: boolean;
  seasons: number[];
  /** E-mail of the user who asked on the primary (for user mapping), when the list shows it. */
  requestedByEmail?: string;
}

export class RemoteError extends Error {
  /** True when the remote could not be reached at all (no HTTP answer). */
  readonly unreachable: boolean;
  constructor(message: string, unreachable = false) {
    super(message);
    this.unreachable = unreachable;
  }
}

const TIMEOUT_MS = 10_000;

export class RemoteClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly outbound: OutboundClient,
  ) {}

  private async call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    signal?: AbortSignal,
    asUser?: number,
  ): Promise<{ status: number; json: unknown }> {
    const url = new URL(this.baseUrl);
    const prefix = url.pathname.replace(/\/$/, '');
    try {
      const dispatcher = await this.outbound.dispatcher({ connections: 4 });
      const response = await dispatcher.request({
        origin: url.origin,
        method,
        path: `${prefix}${path}`,
        headers: {
          'x-api-key': this.apiKey,
          accept: 'application/json',
          // Overseerr/Jellyseerr act as this user instead of the key's admin.
          ...(asUser === undefined ? {} : { 'x-api-user': String(asUser) }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
        ...(signal ? { signal } : {}),
      });
      const text = await response.body.text();
      let json: unknown = undefined;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.statusCode, json };
    } catch (error) {
      throw new RemoteError(`connection failed: ${(error as Error).message}`, true);
    }
  }

  /** Every request, page by page; throws on any failed page. */
  async listAll(signal?: AbortSignal): Promise<RemoteRequest[]> {
    const out: RemoteRequest[] = [];
    const take = 100;
    for (let skip = 0; ; skip += take) {
      const { status, json } = await this.call(
        'GET',
        `/api/v1/request?take=${take}&skip=${skip}&filter=all`,
        undefined,
        signal,
      );
      if (status !== 200) throw new RemoteError(`list failed: HTTP ${status}`);
      const page = json as { results?: unknown[]; pageInfo?: { pages?: number; results?: number } };
      const results = Array.isArray(page.results) ? page.results : [];
      for (const item of results) {
        const parsed = parseRequest(item);
        if (parsed) out.push(parsed);
      }
      const total = page.pageInfo?.results;
      if (results.length < take || (typeof total === 'number' && skip + take >= total)) return out;
    }
  }

  /** The users of the remote by lower-cased e-mail (for user mapping). */
  async usersByEmail(signal?: AbortSignal): Promise<Map<string, number>> {
    const users = new Map<string, number>();
    const take = 100;
    for (let skip = 0; skip < 10_000; skip += take) {
      const { status, json } = await this.call(
        'GET',
        `/api/v1/user?take=${take}&skip=${skip}`,
        undefined,
        signal,
      );
      if (status !== 200) throw new RemoteError(`user list failed: HTTP ${status}`);
      const results = (json as { results?: unknown[] } | undefined)?.results ?? [];
      for (const user of results) {
        const { id, email } = user as { id?: unknown; email?: unknown };
        if (typeof id === 'number' && typeof email === 'string') users.set(email.toLowerCase(), id);
      }
      if (results.length < take) break;
    }
    return users;
  }

  /** Create a request (as `asUser` when given); a 409 links to the existing one (found by listing). */
  async create(
    request: RemoteRequest,
    signal?: AbortSignal,
    asUser?: number,
  ): Promise<{ id: number; status: number }> {
    const body: Record<string, unknown> = {
      mediaType: request.mediaType,
      mediaId: request.tmdbId,
      is4k: request.is4k,
    };
    if (request.mediaType === 'tv')
      body.seasons = request.seasons.length > 0 ? request.seasons : 'all';
    const { status, json } = await this.call('POST', '/api/v1/request', body, signal, asUser);
    if (status === 201 || status === 200) {
      const created = parseRequest(json);
      return { id: created?.id ?? 0, status };
    }
    if (status === 409) {
      const existing = (await this.listAll(signal)).find(
        (item) =>
          item.mediaType === request.mediaType &&
          item.tmdbId === request.tmdbId &&
          item.is4k === request.is4k,
      );
      return { id: existing?.id ?? 0, status };
    }
    throw new RemoteError(`create failed: HTTP ${status}`);
  }

  async delete(id: number, signal?: AbortSignal): Promise<void> {
    const { status } = await this.call('DELETE', `/api/v1/request/${id}`, undefined, signal);
    if (status >= 300 && status !== 404) throw new RemoteError(`delete failed: HTTP ${status}`);
  }

  /** Authenticated probe: the status (version) and a call that needs the key. */
  async probe(signal?: AbortSignal): Promise<{ version: string }> {
    const status = await this.call('GET', '/api/v1/status', undefined, signal);
    if (status.status !== 200) throw new RemoteError(`remote answered HTTP ${status.status}`);
    const auth = await this.call('GET', '/api/v1/request?take=1&skip=0', undefined, signal);
    if (auth.status !== 200)
      throw new RemoteError(`remote answered HTTP ${auth.status} (check the API key)`);
    const version = (status.json as { version?: unknown } | undefined)?.version;
    return { version: typeof version === 'string' ? version : 'unknown' };
  }

  /** Nothing of its own to close: the connections belong to the plugin's outbound client. */
  async close(): Promise<void> {}
}

function parseRequest(value: unknown): RemoteRequest | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const item = value as {
    id?: unknown;
    type?: unknown;
    is4k?: unknown;
    media?: { tmdbId?: unknown; mediaType?: unknown };
    seasons?: { seasonNumber?: unknown }[];
    requestedBy?: { email?: unknown };
  };
  const mediaType = typeof item.type === 'string' ? item.type : item.media?.mediaType;
  const tmdbId = item.media?.tmdbId;
  if (typeof item.id !== 'number' || typeof mediaType !== 'string' || typeof tmdbId !== 'number')
    return undefined;
  const seasons = Array.isArray(item.seasons)
    ? item.seasons
        .map((season) => season.seasonNumber)
        .filter((n): n is number => typeof n === 'number')
    : [];
  const email = item.requestedBy?.email;
  return {
    id: item.id,
    mediaType,
    tmdbId,
    is4k: item.is4k === true,
    seasons,
    ...(typeof email === 'string' && email !== '' ? { requestedByEmail: email } : {}),
  };
}
