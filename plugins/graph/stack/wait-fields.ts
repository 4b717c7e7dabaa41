/**
 * Reading the wait fields of a process block (`wait_for_url`, `wait_for_dir`,
 * `wait_for_mounts`) in every form users write them: a string, one object, or a list of either.
 * Each wait yields the references that name its provider.
 */
import type { JsonRecord } from '../../../sdk/index.js';
import { normalizePath } from './stack-entries.js';
import { isJsonRecord } from '../../../sdk/index.js';

/** One URL a process waits for. */
export interface UrlWait {
  /** Names that point at a provider: tags, a non-local host name, the segment after `/ui/`. */
  readonly refs: readonly string[];
  /** The port, when the URL points at this machine (matched against other blocks' ports). */
  readonly localPort: number | undefined;
}

/** One directory a process waits for. */
export interface DirWait {
  readonly path: string;
  readonly refs: readonly string[];
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '0.0.0.0', '::1', '[::1]', '']);
const TAG_FIELDS = ['core_service', 'core_services', 'service', 'process_name'] as const;
const DIR_FIELDS = ['path', 'dir', 'directory', 'value'] as const;

function listOf(value: unknown): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

/** Reference tags of a wait entry: its core_service(s), service and process_name. */
function tagRefs(entry: JsonRecord): string[] {
  const refs: string[] = [];
  for (const field of TAG_FIELDS)
    for (const value of listOf(entry[field]))
      if (typeof value === 'string')
        for (const piece of value.split(',')) {
          const ref = piece.trim().toLowerCase();
          if (ref !== '' && !refs.includes(ref)) refs.push(ref);
        }
  return refs;
}

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw.trim());
  } catch {
    return undefined;
  }
}

function defaultPort(url: URL): number | undefined {
  if (url.port !== '') return Number(url.port);
  if (url.protocol === 'http:') return 80;
  if (url.protocol === 'https:') return 443;
  return undefined;
}

/** The URLs of `wait_for_url` with the provider references each one carries. */
export function urlWaitsOf(block: JsonRecord): UrlWait[] {
  const waits: UrlWait[] = [];
  for (const item of listOf(block.wait_for_url)) {
    const entry = isJsonRecord(item) ? item : { url: item };
    if (typeof entry.url !== 'string') continue;
    const refs = tagRefs(entry);
    const url = parseUrl(entry.url);
    let localPort: number | undefined;
    if (url !== undefined) {
      const host = url.hostname.toLowerCase();
      if (LOCAL_HOSTS.has(host)) localPort = defaultPort(url);
      else if (!refs.includes(host)) refs.push(host);
      const segments = url.pathname.split('/');
      const ui = segments.indexOf('ui');
      const afterUi = ui >= 0 ? segments[ui + 1]?.toLowerCase() : undefined;
      if (afterUi !== undefined && afterUi !== '' && !refs.includes(afterUi)) refs.push(afterUi);
    }
    waits.push({ refs, localPort });
  }
  return waits;
}

/** The directories of `wait_for_dir` (a path, a list of paths, or objects with a path and tags). */
export function dirWaitsOf(block: JsonRecord): DirWait[] {
  const waits: DirWait[] = [];
  for (const item of listOf(block.wait_for_dir)) {
    if (typeof item === 'string') {
      const path = normalizePath(item);
      if (path !== '') waits.push({ path, refs: [] });
    } else if (isJsonRecord(item)) {
      const raw = DIR_FIELDS.map((field) => item[field]).find((value) => typeof value === 'string');
      waits.push({ path: typeof raw === 'string' ? normalizePath(raw) : '', refs: tagRefs(item) });
    }
  }
  return waits;
}

/** The paths of `wait_for_mounts`. */
export function mountWaitsOf(block: JsonRecord): string[] {
  return listOf(block.wait_for_mounts)
    .filter((item): item is string => typeof item === 'string')
    .map(normalizePath)
    .filter((path) => path !== '');
}
