/** Declared reverse proxies (prefix → resolver), with collision checks against each other. */
import type { ProxyDefinition } from '../../sdk/proxy.js';
import { decodePercent } from './percent-encoding.js';

/** A proxy as core keeps it. */
export interface RegisteredProxy {
  readonly owner: string;
  readonly definition: ProxyDefinition;
}

/** Every proxy of the host. */
export class ProxyTable {
  private readonly proxies: RegisteredProxy[] = [];

  add(owner: string, definition: ProxyDefinition): void {
    const prefix = definition.prefix.replace(/\/+$/, '');
    if (!prefix.startsWith('/') || prefix.length < 2)
      throw new Error(
        `proxy prefix '${definition.prefix}' of plugin '${owner}' must be a path like /service/ui`,
      );
    const clash = this.proxies.find(
      (proxy) =>
        prefix.startsWith(proxy.definition.prefix) || proxy.definition.prefix.startsWith(prefix),
    );
    if (clash !== undefined) {
      throw new Error(
        `proxy ${prefix} of plugin '${owner}' overlaps proxy ${clash.definition.prefix} of plugin '${clash.owner}'`,
      );
    }
    this.proxies.push({ owner, definition: { ...definition, prefix } });
  }

  all(): readonly RegisteredProxy[] {
    return this.proxies;
  }
}

/** Hop-by-hop headers never forwarded (RFC 9110 §7.6.1), plus ones the proxy sets itself. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/**
 * Split `<prefix>/<key>/<rest>` into key and rest (rest starts with `/`); null when there is no
 * key, `malformed` when the key's percent-encoding is.
 */
export function splitProxyPath(
  prefix: string,
  path: string,
): { key: string; rest: string } | 'malformed' | null {
  if (!path.startsWith(`${prefix}/`)) return null;
  const remainder = path.slice(prefix.length + 1);
  const slash = remainder.indexOf('/');
  const key = decodePercent(slash === -1 ? remainder : remainder.slice(0, slash));
  if (key === null) return 'malformed';
  if (key === '') return null;
  return { key, rest: slash === -1 ? '/' : remainder.slice(slash) };
}

/** The upstream URL for a request. */
export function upstreamUrl(
  origin: string,
  prefix: string,
  key: string,
  rest: string,
  rawQuery: string,
  strip: boolean,
): string {
  const path = strip ? rest : `${prefix}/${encodeURIComponent(key)}${rest}`;
  return `${origin.replace(/\/+$/, '')}${path}${rawQuery === '' ? '' : `?${rawQuery}`}`;
}

/**
 * The query without stackd's own `token` parameter: it is an access token for stackd, and a
 * service (or its access log) must never see it. The other parameters are kept byte for byte.
 */
export function queryWithoutToken(rawQuery: string): string {
  if (rawQuery === '') return rawQuery;
  return rawQuery
    .split('&')
    .filter((pair) => !isTokenParameter(pair))
    .join('&');
}

function isTokenParameter(pair: string): boolean {
  const name = pair.split('=', 1)[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return false;
  }
  return decoded === 'token';
}

/** Whether a request header carries stackd's credential (its bearer token), never forwarded. */
export function isStackdCredential(name: string, value: string): boolean {
  return name === 'authorization' && /^Bearer\s/i.test(value);
}

/** The stackd token of a proxied request: the bearer header, else `?token=`. */
export function proxyToken(
  headers: Readonly<Record<string, string>>,
  rawQuery: string,
): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  if (match?.[1] !== undefined) return match[1];
  return new URLSearchParams(rawQuery).get('token');
}
