/**
 * Pre-start waits of a block, parsed (pure): `wait_for_dir`, `wait_for_mounts`, `wait_for_tcp`,
 * `wait_for_url`, in that order (the reference's order). Shapes accepted follow the reference:
 * a single value or a list; URLs as strings or `{url, timeout, probe_method, probe_headers,
 * auth, expected_json_path}` objects.
 */
import { isJsonRecord } from '../../../sdk/index.js';
import { isAbsolute, resolve } from 'node:path';
import { ProcessSpecError } from '../process-spec/command-line.js';

/** One thing to wait for before launching. */
export type WaitItem =
  | { readonly kind: 'dir'; readonly path: string }
  | { readonly kind: 'mount'; readonly path: string }
  | {
      readonly kind: 'tcp';
      readonly host: string;
      readonly port: number;
      readonly timeoutMs: number;
    }
  | {
      readonly kind: 'url';
      readonly url: string;
      readonly method: string;
      readonly headers: Readonly<Record<string, string>>;
      readonly timeoutMs: number;
      readonly expectedJsonPath: string | null;
    };

const DEFAULT_URL_TIMEOUT_MS = 10_000;
const DEFAULT_TCP_TIMEOUT_MS = 2_000;

type Record_ = Record<string, unknown>;

function asList(value: unknown): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

/** Seconds (a positive number or numeric string) to ms, else the default (as the reference). */
function timeoutMs(value: unknown, fallbackMs: number): number {
  const seconds = typeof value === 'string' ? Number(value) : value;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
    ? Math.round(seconds * 1000)
    : fallbackMs;
}

function localPath(value: unknown, field: string, dataDir: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new ProcessSpecError(`${field} must be a non-empty path`);
  return isAbsolute(value) ? value : resolve(dataDir, value);
}

function dirItems(value: unknown, dataDir: string): WaitItem[] {
  return asList(value).map((entry, index) => {
    const raw = isJsonRecord(entry)
      ? (entry.path ?? entry.dir ?? entry.directory ?? entry.value)
      : entry;
    return { kind: 'dir', path: localPath(raw, `wait_for_dir[${index}]`, dataDir) };
  });
}

function mountItems(value: unknown, dataDir: string): WaitItem[] {
  return asList(value).map((entry, index) => ({
    kind: 'mount',
    path: localPath(entry, `wait_for_mounts[${index}]`, dataDir),
  }));
}

function tcpItems(value: unknown): WaitItem[] {
  return asList(value).map((entry, index) => {
    const field = `wait_for_tcp[${index}]`;
    let host: unknown = '127.0.0.1';
    let port: unknown = entry;
    let timeout: unknown;
    if (isJsonRecord(entry)) {
      host = entry.host ?? host;
      port = entry.port;
      timeout = entry.timeout;
    } else if (typeof entry === 'string' && entry.includes(':')) {
      const at = entry.lastIndexOf(':');
      host = entry.slice(0, at);
      port = entry.slice(at + 1);
    }
    const portNumber = typeof port === 'string' ? Number(port) : port;
    if (
      typeof portNumber !== 'number' ||
      !Number.isInteger(portNumber) ||
      portNumber < 1 ||
      portNumber > 65535
    )
      throw new ProcessSpecError(`${field}.port must be an integer from 1 to 65535`);
    if (typeof host !== 'string' || host === '')
      throw new ProcessSpecError(`${field}.host must be a host name`);
    return {
      kind: 'tcp',
      host: probeHost(host),
      port: portNumber,
      timeoutMs: timeoutMs(timeout, DEFAULT_TCP_TIMEOUT_MS),
    };
  });
}

/** Wildcard listen addresses are probed on loopback (as the reference does). */
export function probeHost(host: string): string {
  return host === '0.0.0.0' || host === '::' || host === '[::]' ? '127.0.0.1' : host;
}

function isDavPath(pathname: string): boolean {
  return /^\/(web)?dav(\/|$)/.test(pathname) || /\/(web)?dav\//.test(pathname);
}

function urlItem(entry: unknown, field: string): WaitItem {
  const spec = isJsonRecord(entry) ? entry : { url: entry };
  if (typeof spec.url !== 'string') throw new ProcessSpecError(`${field}.url must be a URL string`);
  let parsed: URL;
  try {
    parsed = new URL(spec.url);
  } catch {
    throw new ProcessSpecError(`${field}.url is not a valid URL: ${describeUrl(spec.url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ProcessSpecError(`${field}.url must be http or https`);
  const headers: Record<string, string> = {};
  if (isJsonRecord(spec.probe_headers))
    for (const [name, value] of Object.entries(spec.probe_headers)) headers[name] = String(value);
  const dav = isDavPath(parsed.pathname);
  const method =
    typeof spec.probe_method === 'string' && spec.probe_method.trim() !== ''
      ? spec.probe_method.trim().toUpperCase()
      : dav
        ? 'PROPFIND'
        : 'GET';
  if (method === 'PROPFIND' && headers.Depth === undefined && headers.depth === undefined)
    headers.Depth = '0';
  if (isJsonRecord(spec.auth) && typeof spec.auth.user === 'string') {
    const password = typeof spec.auth.password === 'string' ? spec.auth.password : '';
    headers.Authorization = `Basic ${Buffer.from(`${spec.auth.user}:${password}`).toString('base64')}`;
  }
  return {
    kind: 'url',
    url: spec.url,
    method,
    headers,
    timeoutMs: timeoutMs(spec.timeout, DEFAULT_URL_TIMEOUT_MS),
    expectedJsonPath:
      typeof spec.expected_json_path === 'string' && spec.expected_json_path !== ''
        ? spec.expected_json_path
        : null,
  };
}

function urlItems(value: unknown): WaitItem[] {
  const seen = new Set<string>();
  const items: WaitItem[] = [];
  asList(value).forEach((entry, index) => {
    const item = urlItem(entry, `wait_for_url[${index}]`);
    if (item.kind === 'url' && !seen.has(item.url)) {
      seen.add(item.url);
      items.push(item);
    }
  });
  return items;
}

/** Every wait of a block, in launch order. Throws a {@link ProcessSpecError} naming the field. */
export function parseWaits(block: Readonly<Record_>, dataDir: string): WaitItem[] {
  return [
    ...dirItems(block.wait_for_dir, dataDir),
    ...mountItems(block.wait_for_mounts, dataDir),
    ...tcpItems(block.wait_for_tcp),
    ...urlItems(block.wait_for_url),
  ];
}

/** A URL for people and logs: credentials and query string removed. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//').replace(/\?.*$/, '');
  }
}

/** "waiting for …" text of one item (the status reason while it is waited on). */
export function describeWait(item: WaitItem): string {
  switch (item.kind) {
    case 'dir':
      return `directory ${item.path}`;
    case 'mount':
      return `mount ${item.path}`;
    case 'tcp':
      return `tcp ${item.host}:${item.port}`;
    case 'url':
      return describeUrl(item.url);
  }
}
