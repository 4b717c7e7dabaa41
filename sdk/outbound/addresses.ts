/**
 * What an IP address is, for the outbound policy: every notation reduced to one canonical form,
 * and the IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), so that
 * `::ffff:a9fe:a9fe` is judged as 169.254.169.254.
 */
import { BlockList, isIP } from 'node:net';

/** A canonical address: `family` 4 or 6, `text` as the URL parser writes it (no brackets). */
export interface CanonicalAddress {
  readonly family: 4 | 6;
  readonly text: string;
}

/**
 * The canonical form of an IP literal in any notation the URL parser accepts (`0251.0376.0251.0376`,
 * `2852039166`, `0xa9fea9fe`, `[::ffff:169.254.169.254]`), or null when `host` is a name.
 */
export function canonicalAddress(host: string): CanonicalAddress | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  // A zone (`fe80::1%eth0`) names an interface, not a different address.
  const unzoned = bare.includes(':') ? bare.replace(/%.*$/, '') : bare;
  let hostname: string;
  try {
    hostname = new URL(`http://${unzoned.includes(':') ? `[${unzoned}]` : unzoned}/`).hostname;
  } catch {
    return null;
  }
  const text = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const family = isIP(text);
  if (family === 4 || family === 6) return { family, text };
  return null;
}

/** The eight 16-bit words of a canonical IPv6 address (no dotted tail: the URL parser wrote hex). */
function ipv6Words(text: string): number[] {
  const [left = '', right] = text.split('::');
  const head = left === '' ? [] : left.split(':');
  const tail = right === undefined || right === '' ? [] : right.split(':');
  const zeros =
    right === undefined ? [] : new Array<string>(8 - head.length - tail.length).fill('0');
  return [...head, ...zeros, ...tail].map((word) => Number.parseInt(word, 16));
}

function dotted(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * The IPv4 address an IPv6 address stands for, when it carries one: IPv4-mapped `::ffff:0:0/96`,
 * the SIIT form `::ffff:0:0:0/96`, IPv4-compatible `::/96` (except `::` and `::1`), NAT64
 * `64:ff9b::/96` and 6to4 `2002::/16`. Each of these reaches the IPv4 host on some systems.
 */
export function embeddedIpv4(address: CanonicalAddress): string | null {
  if (address.family !== 6) return null;
  const words = ipv6Words(address.text);
  const [w0, w1, w2, w3, w4, w5, w6, w7] = words as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const zeroHead = w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0;
  if (zeroHead && w4 === 0 && w5 === 0xffff) return dotted(w6, w7);
  if (zeroHead && w4 === 0xffff && w5 === 0) return dotted(w6, w7);
  if (zeroHead && w4 === 0 && w5 === 0 && !(w6 === 0 && (w7 === 0 || w7 === 1)))
    return dotted(w6, w7);
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0)
    return dotted(w6, w7);
  if (w0 === 0x2002) return dotted(w1, w2);
  return null;
}

/** A CIDR list parsed once: `10.0.0.0/8`, `fd00::/8`, or a single address. */
export class CidrSet {
  private readonly list = new BlockList();

  /** Throws a plain Error naming the entry when one is not an address or CIDR. */
  constructor(entries: readonly string[]) {
    for (const entry of entries) this.add(entry);
  }

  private add(entry: string): void {
    const [host = '', prefixText, extra] = entry.trim().split('/');
    const address = canonicalAddress(host);
    const prefix = prefixText === undefined ? undefined : Number(prefixText);
    const max = address?.family === 6 ? 128 : 32;
    if (
      address === null ||
      extra !== undefined ||
      (prefix !== undefined && (!Number.isInteger(prefix) || prefix < 0 || prefix > max)) ||
      prefixText === ''
    )
      throw new Error(`'${entry}' is not an IP address or CIDR`);
    const type = address.family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) this.list.addAddress(address.text, type);
    else this.list.addSubnet(address.text, prefix, type);
  }

  has(address: CanonicalAddress): boolean {
    return this.list.check(address.text, address.family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** Why an address is never called, whatever the settings say. */
export type HardRefusal = 'unspecified' | 'link-local' | 'metadata' | 'multicast' | 'reserved';

/**
 * The fixed address sets are built on first use, not at load: building them parses each entry
 * through `URL` and `net.isIP`, whose first IPv6 check compiles Node's large IPv6 pattern, and
 * every host paid that before it could listen although most never call out.
 */
function lazily<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

const hardRules = lazily((): ReadonlyArray<readonly [HardRefusal, CidrSet]> => [
  ['unspecified', new CidrSet(['0.0.0.0/8', '::/128'])],
  // Cloud metadata services: AWS/GCP/Azure/OpenStack (169.254.169.254, inside link-local),
  // AWS over IPv6 (fd00:ec2::254) and Alibaba (100.100.100.200).
  ['metadata', new CidrSet(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200'])],
  ['link-local', new CidrSet(['169.254.0.0/16', 'fe80::/10'])],
  ['multicast', new CidrSet(['224.0.0.0/4', 'ff00::/8'])],
  ['reserved', new CidrSet(['240.0.0.0/4'])],
]);

/** Loopback: every alias of this machine. */
const loopback = lazily(() => new CidrSet(['127.0.0.0/8', '::1/128']));

/** Private networks (the LAN, CGNAT, unique-local and the old site-local IPv6 ranges). */
const privateNetworks = lazily(
  () =>
    new CidrSet([
      '10.0.0.0/8',
      '172.16.0.0/12',
      '192.168.0.0/16',
      '100.64.0.0/10',
      'fc00::/7',
      'fec0::/10',
    ]),
);

/** Whether the address is one of this machine's loopback aliases. */
export function isLoopback(address: CanonicalAddress): boolean {
  return loopback().has(address);
}

/** Whether the address is in a private network range. */
export function isPrivate(address: CanonicalAddress): boolean {
  return privateNetworks().has(address);
}

/** The hard refusal an address falls under, or null. */
export function hardRefusal(address: CanonicalAddress): HardRefusal | null {
  for (const [reason, set] of hardRules()) if (set.has(address)) return reason;
  return null;
}
