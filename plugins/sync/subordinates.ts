/**
 * The subordinates a configuration names: external ones as written, internal ones resolved from
 * their process block (URL from `host` and `port`, key from the slice or the block's `api_key`).
 */
import { findProcessEntry, listProcessEntries, type JsonRecord } from '../../sdk/index.js';
import type { SyncConfig } from './config.js';

export interface ResolvedSubordinate {
  readonly label: string;
  readonly url: string;
  readonly api_key: string;
}

export function resolveSubordinates(
  config: SyncConfig,
  document: JsonRecord,
): ResolvedSubordinate[] {
  const resolved: ResolvedSubordinate[] = config.subordinates.map((sub) => ({ ...sub }));
  const entries = listProcessEntries(document);
  for (const internal of config.internal_subordinates) {
    const entry = findProcessEntry(entries, internal.process_name);
    if (entry === undefined || typeof entry.block.port !== 'number') continue;
    const host =
      typeof entry.block.host === 'string' && entry.block.host !== ''
        ? entry.block.host
        : '127.0.0.1';
    const blockKey = typeof entry.block.api_key === 'string' ? entry.block.api_key : '';
    resolved.push({
      label: `internal:${entry.instance_name ?? entry.process_name}`,
      url: `http://${host}:${entry.block.port}`,
      api_key: internal.api_key ?? blockKey,
    });
  }
  return resolved;
}
