/**
 * The processes of a configuration document as the graph sees them (CONTRACT.md: every
 * object-valued top-level key except `stackd` is a service block, a process block with
 * `process_name` or `{instances: {Name: block}}`; the host's own `stackd.api_service` is a
 * process too). Each entry carries what the derivation matches on: core refs, ports, mount points.
 */
import { posix } from 'node:path';
import { listProcessEntries, type ProcessEntry } from '../../../sdk/index.js';
import type { JsonRecord } from '../../../sdk/index.js';

/** One process of the document (the sdk's process entry) with what the derivation matches on. */
export interface GraphEntry extends ProcessEntry {
  /** Position in the entry list (file order); relations refer to entries by it. */
  readonly index: number;
  readonly enabled: boolean;
  /** core_service + core_services, normalized (see {@link normalizeCoreRefs}). */
  readonly coreRefs: readonly string[];
  readonly ports: readonly number[];
  readonly mountPoints: readonly string[];
}

const PORT_FIELDS = [
  'port',
  'frontend_port',
  'backend_port',
  'web_port',
  'ui_port',
  'http_port',
  'https_port',
  'external_port',
] as const;

/**
 * Core service references: strings split on commas, trimmed, lower-cased, legacy names mapped
 * (`nzbdav` → `infinidysk`), first occurrence kept; anything that is not a string is ignored.
 */
export function normalizeCoreRefs(
  values: readonly unknown[],
  legacy: ReadonlyMap<string, string>,
): string[] {
  const refs: string[] = [];
  for (const value of values) {
    const parts = Array.isArray(value) ? value : [value];
    for (const part of parts) {
      if (typeof part !== 'string') continue;
      for (const piece of part.split(',')) {
        const token = piece.trim().toLowerCase();
        if (token === '') continue;
        const ref = legacy.get(token) ?? token;
        if (!refs.includes(ref)) refs.push(ref);
      }
    }
  }
  return refs;
}

/** A block's core refs: `core_service` (string, comma list or array) then `core_services`. */
export function coreRefsOf(block: JsonRecord, legacy: ReadonlyMap<string, string>): string[] {
  return normalizeCoreRefs([block.core_service, block.core_services], legacy);
}

function asPort(value: unknown): number | undefined {
  const port = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof port === 'number' && Number.isInteger(port) && port > 0 ? port : undefined;
}

/** Every port a block listens on (the port-like fields and `ports[]`). */
export function portsOf(block: JsonRecord): number[] {
  const ports = new Set<number>();
  for (const field of PORT_FIELDS) {
    const port = asPort(block[field]);
    if (port !== undefined) ports.add(port);
  }
  if (Array.isArray(block.ports))
    for (const value of block.ports) {
      const port = asPort(value);
      if (port !== undefined) ports.add(port);
    }
  return [...ports];
}

/** A path without trailing slashes and dot segments; empty when it is not a usable path. */
export function normalizePath(path: string): string {
  const trimmed = path.trim();
  if (trimmed === '') return '';
  const normal = posix.normalize(trimmed);
  return normal.length > 1 ? normal.replace(/\/+$/, '') : normal;
}

/** Mount points a block provides: `mount_path`, and `mount_dir`/`mount_name` joined. */
export function mountPointsOf(block: JsonRecord): string[] {
  const points = new Set<string>();
  if (typeof block.mount_path === 'string') points.add(normalizePath(block.mount_path));
  if (typeof block.mount_dir === 'string' && typeof block.mount_name === 'string')
    points.add(normalizePath(posix.join(block.mount_dir, block.mount_name)));
  points.delete('');
  return [...points];
}

/** Every process of the document in file order (the API service first). */
export function listGraphEntries(
  document: JsonRecord,
  legacy: ReadonlyMap<string, string>,
): GraphEntry[] {
  return listProcessEntries(document).map((entry, index) => ({
    ...entry,
    index,
    enabled: entry.self || entry.block.enabled === true,
    coreRefs: coreRefsOf(entry.block, legacy),
    ports: portsOf(entry.block),
    mountPoints: mountPointsOf(entry.block),
  }));
}
