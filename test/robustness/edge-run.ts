/**
 * The fuzz run's edge cases that need their own host: stackd's token must never reach a proxied
 * service (HTTP `?token=`, bearer header, WebSocket `?token=`), and requests a proxy in front
 * could frame differently (request smuggling) must be refused and closed, on routes, unknown
 * paths and the proxy alike. The upstream is a real server on 127.0.0.1 recording what it gets.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'undici';
import { builtinPlugin, HELLO_PLUGIN_DIR } from '../helpers/fixture-paths.js';
import { request } from '../helpers/http.js';
import { startHost } from '../helpers/start-host.js';
import { SMUGGLING_CASES, exchangeRaw } from './raw-socket.js';

interface Seen {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

/** Run every edge case; answers the problems found (empty when all held). */
export async function runEdgeCases(): Promise<string[]> {
  const seen: Seen[] = [];
  const upstream = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  upstream.on('upgrade', (req, socket) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    socket.destroy();
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const host = await startHost({
    plugins: [builtinPlugin('auth'), HELLO_PLUGIN_DIR],
    config: { stackd: { auth: { scrypt_cost_log2: 14 } } },
    env: { HELLO_UPSTREAM: origin },
  });
  const problems: string[] = [];
  try {
    const setup = await request(host.url, '/api/auth/setup', {
      body: { username: 'admin', password: 'admin-password' },
    });
    const token = setup.body.access_token as string;
    await request(host.url, `/hello/proxy/up/a?token=${token}&x=1`);
    await request(host.url, `/hello/proxy/up/b?token=${token}`, {
      token,
      method: 'POST',
      body: {},
    });
    await new Promise<void>((resolve) => {
      const socket = new WebSocket(
        `${host.url.replace(/^http/, 'ws')}/hello/proxy/up/c?token=${token}`,
      );
      socket.addEventListener('close', () => resolve());
      socket.addEventListener('error', () => resolve());
    });
    if (seen.length < 3) problems.push(`proxy-token: upstream saw ${seen.length} of 3 requests`);
    for (const request of seen) {
      const leaked = [request.url, ...Object.values(request.headers).map(String)].some((text) =>
        text.includes(token),
      );
      if (leaked)
        problems.push(`proxy-token: the upstream received stackd's token (${request.url})`);
    }
    const before = seen.length;
    for (const path of ['/hello/echo', '/no/such/route', '/hello/proxy/up/x']) {
      for (const smuggle of SMUGGLING_CASES) {
        const answer = await exchangeRaw(host.port, smuggle.head(path), 15_000);
        const refused =
          answer.status === smuggle.status ||
          (answer.status === null && smuggle.unansweredAllowed === true);
        if (!refused || !answer.closed || answer.elapsedMs > 5_000)
          problems.push(
            `smuggling: ${smuggle.name} on ${path}: status ${answer.status}, ` +
              `closed ${answer.closed} after ${answer.elapsedMs} ms`,
          );
      }
    }
    if (seen.length !== before) problems.push('smuggling: a refused request reached the upstream');
  } finally {
    await host.stop();
    upstream.close();
  }
  return problems;
}
