/**
 * The outbound policy: which addresses the host may call (webhooks, AI providers, request
 * managers). Never: unspecified, link-local, cloud metadata, multicast and reserved addresses,
 * nor stackd's own listen port on any loopback alias or local address (a URL pointing there
 * would call stackd's API with stackd's own rights). By default the LAN and other loopback
 * ports stay allowed: self-hosted services and local model runtimes live there.
 * `stackd.outbound` narrows it (see {@link OutboundSettings}).
 */
import { networkInterfaces } from 'node:os';
import { Type, type Static, checkValue, withDefaults } from '../schema.js';
import { isJsonRecord, type JsonRecord } from '../config.js';
import {
  CidrSet,
  isLoopback,
  isPrivate,
  canonicalAddress,
  embeddedIpv4,
  hardRefusal,
  type CanonicalAddress,
} from './addresses.js';

/** `stackd.outbound`: what the host may call out to. */
export const OutboundSettings = Type.Object(
  {
    allow_private: Type.Boolean({
      default: true,
      description:
        'Allow private networks (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7). Default true.',
    }),
    allow_loopback: Type.Boolean({
      default: true,
      description:
        "Allow loopback addresses (127/8, ::1) other than stackd's own port. Default true.",
    }),
    allow: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description:
        'Addresses or CIDRs allowed even when private/loopback are off or `deny` lists them. ' +
        "Never overrides link-local, metadata, unspecified addresses or stackd's own port.",
    }),
    deny: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'Addresses or CIDRs never called (checked after name resolution).',
    }),
  },
  { additionalProperties: true, title: 'OutboundSettings' },
);
/** Type of {@link OutboundSettings}. */
export type OutboundSettings = Static<typeof OutboundSettings>;

/** Raised for a bad `stackd.outbound`: `field` names the key. */
export class OutboundSettingsError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

/** Settings parsed once: the CIDR lists built. */
export interface ParsedOutboundSettings {
  readonly allowPrivate: boolean;
  readonly allowLoopback: boolean;
  readonly allow: CidrSet;
  readonly deny: CidrSet;
}

const FIELD = 'stackd.outbound';

function cidrs(entries: readonly string[], key: 'allow' | 'deny'): CidrSet {
  try {
    return new CidrSet(entries);
  } catch (error) {
    throw new OutboundSettingsError(
      `${FIELD}.${key}: ${(error as Error).message}`,
      `${FIELD}.${key}`,
    );
  }
}

/** `stackd.outbound` of a document, defaults applied; throws {@link OutboundSettingsError}. */
export function outboundSettingsOf(document: Readonly<JsonRecord>): ParsedOutboundSettings {
  const host = document.stackd;
  const raw = isJsonRecord(host) && host.outbound !== undefined ? host.outbound : {};
  const filled = withDefaults(OutboundSettings, raw);
  const failure = checkValue(OutboundSettings, filled)[0];
  if (failure !== undefined) {
    const field = failure.field === '' ? FIELD : `${FIELD}.${failure.field}`;
    throw new OutboundSettingsError(`${field}: ${failure.message}`, field);
  }
  const settings = filled as OutboundSettings;
  return {
    allowPrivate: settings.allow_private,
    allowLoopback: settings.allow_loopback,
    allow: cidrs(settings.allow, 'allow'),
    deny: cidrs(settings.deny, 'deny'),
  };
}

/** The defaults, for callers without a configuration. */
export const DEFAULT_OUTBOUND: ParsedOutboundSettings = outboundSettingsOf({});

/** Where stackd listens: the port, and the address when it is one particular address. */
export interface SelfAddress {
  readonly port: number;
  /** null when stackd listens on every address (`0.0.0.0`, `::`). */
  readonly address: CanonicalAddress | null;
}

/** stackd's own address from its base URL (`http://127.0.0.1:8000`), or null before listening. */
export function selfAddressOf(baseUrl: string | null): SelfAddress | null {
  if (baseUrl === null) return null;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return null;
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const address = canonicalAddress(url.hostname);
  const everywhere = address === null || address.text === '0.0.0.0' || address.text === '::';
  return { port, address: everywhere ? null : address };
}

function isLocalInterface(address: CanonicalAddress): boolean {
  return Object.values(networkInterfaces()).some((entries) =>
    (entries ?? []).some((entry) => canonicalAddress(entry.address)?.text === address.text),
  );
}

function isSelf(address: CanonicalAddress, port: number, self: SelfAddress | null): boolean {
  if (self === null || port !== self.port) return false;
  if (isLoopback(address)) return true;
  if (self.address !== null) return self.address.text === address.text;
  return isLocalInterface(address);
}

/** Why one address (no embedded address looked at) is refused, or null. */
function ownRefusal(
  address: CanonicalAddress,
  port: number,
  settings: ParsedOutboundSettings,
  self: SelfAddress | null,
): string | null {
  const hard = hardRefusal(address);
  if (hard !== null) return hard;
  if (isSelf(address, port, self)) return 'stackd-itself';
  if (settings.allow.has(address)) return null;
  if (settings.deny.has(address)) return 'denied';
  if (!settings.allowLoopback && isLoopback(address)) return 'loopback';
  if (!settings.allowPrivate && isPrivate(address)) return 'private';
  return null;
}

/**
 * Why connecting to `host` (an IP literal in any notation) on `port` is refused, or null when it
 * is allowed. An IPv6 address carrying an IPv4 one is refused when either is.
 */
export function addressRefusal(
  host: string,
  port: number,
  settings: ParsedOutboundSettings,
  self: SelfAddress | null,
): string | null {
  const address = canonicalAddress(host);
  if (address === null) return 'not-an-address';
  const own = ownRefusal(address, port, settings, self);
  if (own !== null) return own;
  const inner = embeddedIpv4(address);
  if (inner === null) return null;
  const innerAddress = canonicalAddress(inner);
  return innerAddress === null ? null : ownRefusal(innerAddress, port, settings, self);
}

/** The port a URL connects to. */
export function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** Names that are this machine whatever DNS says (the resolver never sees them). */
const LOCAL_NAMES =
  /^(?:localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)\.?$|\.localhost\.?$/i;

/**
 * The refusal a URL earns without resolving anything: an IP literal is judged as it is; a
 * `localhost` name as 127.0.0.1. Other names wait for the call (they are checked after DNS).
 */
export function staticRefusal(
  url: URL,
  settings: ParsedOutboundSettings,
  self: SelfAddress | null,
): string | null {
  const port = portOf(url);
  if (canonicalAddress(url.hostname) !== null)
    return addressRefusal(url.hostname, port, settings, self);
  if (LOCAL_NAMES.test(url.hostname)) return addressRefusal('127.0.0.1', port, settings, self);
  return null;
}
