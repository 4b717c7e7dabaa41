/**
 * Shared pieces of the auth end-to-end tests: the real host with the auth plugin and the hello
 * fixture plugin (a protected route `POST /hello/echo` that echoes the principal, and a protected
 * stream `/ws/hello`), loaded by path.
 */
import { builtinPlugin, HELLO_PLUGIN_DIR } from '../../helpers/fixture-paths.js';
import type { ExecutionContext } from 'ava';
import { request, type JsonResponse } from '../../helpers/http.js';
import {
  startHost,
  type RunningHostProcess,
  type StartHostOptions,
} from '../../helpers/start-host.js';

/** The compiled auth plugin of this build. */
export const AUTH_PLUGIN = builtinPlugin('auth');
/** The compiled hello fixture plugin. */
export const HELLO_PLUGIN = HELLO_PLUGIN_DIR;

/** A password planted in tests that must never come back out in clear. */
export const PLANTED_PASSWORD = 'Planted-Pa55word-7f3c';

/**
 * Start the host with auth + hello and an optional `stackd.auth` slice. New hashes use scrypt's
 * lowest accepted cost unless the slice says otherwise: the machine is shared, and the tests
 * check behaviour, not hash strength.
 */
export function startAuthHost(
  auth: Record<string, unknown> = {},
  options: Omit<StartHostOptions, 'plugins' | 'config'> & { logLevel?: string } = {},
): Promise<RunningHostProcess> {
  const { logLevel, ...rest } = options;
  return startHost({
    ...rest,
    plugins: [AUTH_PLUGIN, HELLO_PLUGIN],
    config: {
      stackd: {
        api_service: { log_level: logLevel ?? 'INFO' },
        auth: { scrypt_cost_log2: 14, ...auth },
      },
    },
  });
}

/** A small client bound to one host. */
export function client(host: RunningHostProcess) {
  const call = <T = any>(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<JsonResponse<T>> =>
    request<T>(host.url, path, {
      method,
      ...(body === undefined ? {} : { body }),
      ...(token === undefined ? {} : { token }),
    });
  return {
    get: <T = any>(path: string, token?: string) => call<T>('GET', path, undefined, token),
    post: <T = any>(path: string, body?: unknown, token?: string) =>
      call<T>('POST', path, body ?? {}, token),
    put: <T = any>(path: string, body: unknown, token?: string) =>
      call<T>('PUT', path, body, token),
    del: <T = any>(path: string, token?: string) => call<T>('DELETE', path, undefined, token),
    /** The protected hello route; answers with the principal's name (or null when open). */
    echo: (token?: string) => call('POST', '/hello/echo', { name: 'bob' }, token),
  };
}

/** Assert a status and, when given, the error code; shows the body on failure. */
export function expectStatus(
  t: ExecutionContext,
  response: JsonResponse,
  status: number,
  code?: string,
): void {
  t.is(response.status, status, response.text);
  if (code !== undefined) t.is(response.body?.code, code, response.text);
}

/** The JSON claims of a JWT, decoded without checking the signature. */
export function claimsOf(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** A host whose setup created the user `admin`; its tokens, and a client. */
export async function startWithAdmin(): Promise<{
  host: RunningHostProcess;
  api: ReturnType<typeof client>;
  admin: string;
  adminRefresh: string;
}> {
  const host = await startAuthHost();
  const api = client(host);
  const setup = await api.post('/api/auth/setup', {
    username: 'admin',
    password: 'admin-password',
  });
  return { host, api, admin: setup.body.access_token, adminRefresh: setup.body.refresh_token };
}
