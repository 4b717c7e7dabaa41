/**
 * SSRF cases of the fuzz run: every route that stores or calls an outbound URL gets the cloud
 * metadata address in its odd notations and stackd's own API; each must be refused with 422
 * naming the field. A real 127.0.0.1 server that redirects to stackd's own port must read as
 * "could not reach the provider", and stackd's own API must never see the redirected call.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from '../helpers/http.js';

/** A finding, shaped like the fuzz run's. */
interface Finding {
  readonly what: string;
  readonly request: string;
  readonly kind: string;
  readonly detail: string;
}

/** Forbidden URLs for a host listening on `port`. */
export function ssrfUrls(port: number): string[] {
  return [
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[::ffff:169.254.169.254]/',
    'http://0251.0376.0251.0376/',
    'http://2852039166/',
    'http://0xa9fea9fe/',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://0.0.0.0/',
    `http://127.0.0.1:${port}/api/auth/disable`,
    `http://127.1:${port}/api/auth/disable`,
    `http://[::1]:${port}/`,
    `http://localhost:${port}/`,
  ];
}

interface Target {
  readonly method: 'POST' | 'PUT';
  readonly path: string;
  readonly field: string;
  readonly body: (url: string) => unknown;
}

const TARGETS: readonly Target[] = [
  { method: 'PUT', path: '/ai/settings', field: 'base_url', body: (url) => ({ base_url: url }) },
  {
    method: 'POST',
    path: '/ai/profiles',
    field: 'base_url',
    body: (url) => ({ name: 'ssrf', provider: 'chat_compatible', base_url: url, model: 'm' }),
  },
  { method: 'POST', path: '/ai/test', field: 'base_url', body: (url) => ({ base_url: url }) },
  { method: 'POST', path: '/ai/models', field: 'base_url', body: (url) => ({ base_url: url }) },
  {
    method: 'POST',
    path: '/notifications/config',
    field: 'config.destinations[0].url',
    body: (url) => ({ config: { destinations: [{ id: 'ssrf', provider: 'webhook', url }] } }),
  },
  {
    method: 'POST',
    path: '/request-sync/test',
    field: 'url',
    body: (url) => ({ url, api_key: 'k' }),
  },
  {
    method: 'POST',
    path: '/config',
    field: 'stackd.sync.primary.url',
    body: (url) => ({
      updates: { stackd: { sync: { primary: { url, api_key: 'k' } } } },
      persist: false,
    }),
  },
];

/** Run the SSRF cases; returns how many requests were sent and what went wrong. */
export async function runSsrfCases(
  origin: string,
  token: string,
): Promise<{ sent: number; findings: Finding[] }> {
  const port = Number(new URL(origin).port);
  const findings: Finding[] = [];
  let sent = 0;
  for (const target of TARGETS)
    for (const url of ssrfUrls(port)) {
      const answer = await request(origin, target.path, {
        method: target.method,
        body: target.body(url),
        token,
      });
      sent += 1;
      // A plugin that is not loaded: nothing to call out with.
      if (answer.status === 404) break;
      const body = answer.body as { field?: unknown } | undefined;
      if (answer.status !== 422 || body?.field !== target.field)
        findings.push({
          what: `SSRF URL accepted (${answer.status})`,
          request: `${target.method} ${target.path} ${url}`,
          kind: 'ssrf',
          detail: answer.text.slice(0, 200),
        });
    }
  const redirected = await redirectCase(origin, token, port);
  return { sent: sent + redirected.sent, findings: [...findings, ...redirected.findings] };
}

/** A loopback server that answers 302 to stackd's own API, called through the test routes. */
async function redirectCase(
  origin: string,
  token: string,
  port: number,
): Promise<{ sent: number; findings: Finding[] }> {
  const server = createServer((_req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${port}/api/auth/disable` }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const findings: Finding[] = [];
  let sent = 0;
  try {
    const cases = [
      { path: '/ai/test', body: { provider: 'chat_compatible', base_url: base, model: 'm' } },
      { path: '/request-sync/test', body: { url: base, api_key: 'k' } },
    ];
    for (const item of cases) {
      const answer = await request(origin, item.path, { body: item.body, token });
      sent += 1;
      if (answer.status === 404) continue;
      if (!answer.text.includes('could not reach the provider'))
        findings.push({
          what: 'redirect to stackd itself not refused as unreachable',
          request: `POST ${item.path} → 302 ${base}`,
          kind: 'ssrf',
          detail: answer.text.slice(0, 200),
        });
    }
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  const auth = await request(origin, '/api/auth/status', { token });
  sent += 1;
  if (auth.status === 200 && (auth.body as { enabled?: unknown }).enabled === false)
    findings.push({
      what: 'authentication was turned off through a redirect',
      request: 'GET /api/auth/status',
      kind: 'ssrf',
      detail: auth.text.slice(0, 200),
    });
  return { sent, findings };
}
