/** A fake request manager (real node:http on 127.0.0.1): paging, 409s, failures, key check. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  id: number;
  type: string;
  is4k: boolean;
  media: { tmdbId: number; mediaType: string };
  seasons: { seasonNumber: number }[];
  requestedBy?: { id: number; email: string };
}

interface CreateBody {
  mediaType: string;
  mediaId: number;
  is4k: boolean;
  seasons?: number[];
}

export interface FakeSeerr {
  readonly url: string;
  readonly requests: FakeRequest[];
  readonly creates: unknown[];
  /** The X-API-User header of each create (undefined: the key's admin). */
  readonly createdAs: Array<string | undefined>;
  /** Users of this fake (GET /api/v1/user). */
  readonly users: Array<{ id: number; email: string }>;
  /** Answer list calls with 500 while true. */
  failList: boolean;
  /** Answer create calls with 500 while true. */
  failCreate: boolean;
  /** Delay every create answer by this many ms (a slow instance). */
  createDelayMs: number;
  /** List calls answered (any status). */
  listCalls: number;
  /** List calls answered with 500. */
  listFailures: number;
  add(type: string, tmdbId: number, is4k?: boolean, seasons?: number[]): FakeRequest;
  close(): Promise<void>;
}

export async function startFakeSeerr(apiKey: string): Promise<FakeSeerr> {
  const requests: FakeRequest[] = [];
  const creates: unknown[] = [];
  const createdAs: Array<string | undefined> = [];
  const users: Array<{ id: number; email: string }> = [];
  let nextId = 1;
  const state = {
    failList: false,
    failCreate: false,
    createDelayMs: 0,
    listFailures: 0,
    listCalls: 0,
  };
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/v1/status') return send(200, { version: '1.2.3' });
    if (req.headers['x-api-key'] !== apiKey) return send(401, { message: 'bad key' });
    if (req.method === 'GET' && url.pathname === '/api/v1/request') {
      state.listCalls += 1;
      if (state.failList) {
        state.listFailures += 1;
        return send(500, { message: 'boom' });
      }
      const take = Number(url.searchParams.get('take') ?? 10);
      const skip = Number(url.searchParams.get('skip') ?? 0);
      return send(200, {
        pageInfo: { pages: Math.ceil(requests.length / take), results: requests.length },
        results: requests.slice(skip, skip + take),
      });
    }
    if (req.method === 'GET' && url.pathname === '/api/v1/user') {
      const take = Number(url.searchParams.get('take') ?? 10);
      const skip = Number(url.searchParams.get('skip') ?? 0);
      return send(200, {
        pageInfo: { results: users.length },
        results: users.slice(skip, skip + take),
      });
    }
    if (req.method === 'POST' && url.pathname === '/api/v1/request') {
      const asUser = req.headers['x-api-user'];
      createdAs.push(typeof asUser === 'string' ? asUser : undefined);
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const body = JSON.parse(text) as CreateBody;
        creates.push(body);
        setTimeout(() => answerCreate(body), state.createDelayMs);
      });
      const answerCreate = (body: CreateBody) => {
        if (state.failCreate) return send(500, { message: 'boom' });
        if (
          requests.some(
            (r) =>
              r.media.tmdbId === body.mediaId && r.type === body.mediaType && r.is4k === body.is4k,
          )
        )
          return send(409, { message: 'exists' });
        const created = addRequest(
          body.mediaType,
          body.mediaId,
          body.is4k,
          Array.isArray(body.seasons) ? body.seasons : [],
        );
        send(201, created);
      };
      return;
    }
    const del = /^\/api\/v1\/request\/(\d+)$/.exec(url.pathname);
    if (req.method === 'DELETE' && del) {
      const index = requests.findIndex((r) => r.id === Number(del[1]));
      if (index >= 0) requests.splice(index, 1);
      return send(204, {});
    }
    send(404, {});
  });
  function addRequest(
    type: string,
    tmdbId: number,
    is4k = false,
    seasons: number[] = [],
  ): FakeRequest {
    const created = {
      id: nextId++,
      type,
      is4k,
      media: { tmdbId, mediaType: type },
      seasons: seasons.map((seasonNumber) => ({ seasonNumber })),
    };
    requests.push(created);
    return created;
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    requests,
    creates,
    createdAs,
    users,
    add: addRequest,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
