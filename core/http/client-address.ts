/**
 * The client address of a request (docs/decisions.md §25): the socket peer, unless the peer is a trusted
 * proxy (`stackd.api_service.trusted_proxies`, addresses or CIDRs); then the right-most
 * `X-Forwarded-For` entry that is not itself trusted. A header from an untrusted peer is
 * ignored, so nobody can choose their own address for rate limits and logs.
 */
import { BlockList, isIP } from 'node:net';
import type { HttpRequest, HttpResponse } from './uws-app.js';

type Family = 'ipv4' | 'ipv6';

/** Why a trusted_proxies entry was refused. */
export class TrustedProxyError extends Error {}

function familyOf(address: string): Family | null {
  const version = isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : null;
}

/** `::ffff:1.2.3.4` (how dual-stack sockets show IPv4 peers) as `1.2.3.4`. */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim().replace(/^\[(.*)\]$/, '$1');
  const mapped = /^(?:0{0,4}:){0,5}(?:0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  if (mapped?.[1] !== undefined) return mapped[1];
  const hexMapped = /^(?:0{1,4}:){5}ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(trimmed);
  if (hexMapped?.[1] !== undefined && hexMapped[2] !== undefined) {
    const high = parseInt(hexMapped[1], 16);
    const low = parseInt(hexMapped[2], 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return trimmed.toLowerCase();
}

/** The trusted_proxies list of the host section (absent or malformed reads as none). */
export function trustedProxiesOf(apiService: unknown): string[] {
  const list = (apiService as { trusted_proxies?: unknown } | null | undefined)?.trusted_proxies;
  return Array.isArray(list) ? list.map(String) : [];
}

/**
 * A BlockList of the entries. Throws {@link TrustedProxyError} naming the first entry that is
 * neither an address nor a CIDR.
 */
export function trustedList(trustedProxies: readonly string[]): BlockList {
  const list = new BlockList();
  for (const [index, entry] of trustedProxies.entries()) {
    const [address = '', prefix] = entry.trim().split('/');
    const family = familyOf(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const max = family === 'ipv4' ? 32 : 128;
    if (
      family === null ||
      (bits !== undefined && (!Number.isInteger(bits) || bits < 0 || bits > max))
    )
      throw new TrustedProxyError(
        `stackd.api_service.trusted_proxies[${index}]: '${entry}' is not an IP address or CIDR`,
      );
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, bits, family);
  }
  return list;
}

/** Resolves client addresses against a list of trusted proxies (replaceable at runtime). */
export class ClientAddresses {
  private trusted: BlockList;
  private any: boolean;

  constructor(trustedProxies: readonly string[]) {
    this.trusted = trustedList(trustedProxies);
    this.any = trustedProxies.length > 0;
  }

  /** Take a new list (after a configuration change that passed validation). */
  replace(trustedProxies: readonly string[]): void {
    this.trusted = trustedList(trustedProxies);
    this.any = trustedProxies.length > 0;
  }

  /** Whether an address is one of the trusted proxies. */
  isTrusted(address: string): boolean {
    const family = familyOf(address);
    return family !== null && this.trusted.check(address, family);
  }

  /** The client address, given the peer and the X-Forwarded-For header (if any). */
  resolve(peer: string, forwardedFor: string | undefined): string {
    const client = normalizeAddress(peer);
    if (!this.any || forwardedFor === undefined || !this.isTrusted(client)) return client;
    const hops = forwardedFor.split(',').map(normalizeAddress);
    for (let index = hops.length - 1; index >= 0; index -= 1) {
      const hop = hops[index] ?? '';
      if (familyOf(hop) === null) return client;
      if (!this.isTrusted(hop)) return hop;
    }
    return hops[0] ?? client;
  }

  /** The client address of a uWS request (read before the handler returns). */
  of(res: HttpResponse, req: HttpRequest): string {
    return this.ofResponse(res, req.getHeader('x-forwarded-for') || undefined);
  }

  /** The client address of a response still open, given its X-Forwarded-For header. */
  ofResponse(res: HttpResponse, forwardedFor: string | undefined): string {
    const peer = Buffer.from(res.getRemoteAddressAsText()).toString('latin1');
    return this.resolve(peer, this.any ? forwardedFor : undefined);
  }
}
