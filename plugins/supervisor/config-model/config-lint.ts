/**
 * Boot-time notes on the document that are not errors: unknown keys are the user's and kept, but
 * a near-miss of a known field or plugin name (`autorestart`, `stackd.supervisr`) gets one
 * warning with a "did you mean"; a block that does not say `"enabled": true` is disabled, and the
 * log says so instead of leaving it silently stopped.
 */
import {
  HOST_SECTION,
  isJsonRecord,
  listProcessEntries,
  type JsonRecord,
} from '../../../sdk/index.js';
import { ApiServiceBlock, ProcessBlock } from './block-schema.js';

/** Keys people write for something stackd names otherwise. */
const SYNONYMS: Readonly<Record<string, string>> = {
  depends_on: 'wait_for_url (or wait_for_tcp, core_service)',
  dependencies: 'wait_for_url (or wait_for_tcp, core_service)',
  requires: 'wait_for_url (or wait_for_tcp, core_service)',
  after: 'wait_for_url (or wait_for_tcp, core_service)',
  environment: 'env',
  cmd: 'command',
  name: 'process_name',
  disabled: 'enabled',
  autostart: 'enabled',
};

/** Host section keys core reads itself (besides the plugins' slices). */
const HOST_KEYS = ['api_service', 'plugins', 'lifecycle', 'config_history'];

/** Edit distance of two short names (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length] ?? 0;
}

const squash = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The known name an unknown key most likely meant, or undefined. */
export function didYouMean(key: string, known: readonly string[]): string | undefined {
  const synonym = SYNONYMS[key.toLowerCase()];
  if (synonym !== undefined) return synonym;
  let best: { name: string; cost: number } | undefined;
  for (const name of known) {
    const cost = distance(squash(key), squash(name));
    if (
      cost <= Math.max(1, Math.floor(name.length / 4)) &&
      (best === undefined || cost < best.cost)
    )
      best = { name, cost };
  }
  return best?.name;
}

function unknownKeyNotes(
  block: JsonRecord,
  path: readonly string[],
  known: readonly string[],
): string[] {
  return Object.keys(block)
    .filter((key) => !known.includes(key))
    .flatMap((key) => {
      const meant = didYouMean(key, known);
      return meant === undefined
        ? []
        : [`${[...path, key].join('.')}: unknown field kept as is; did you mean ${meant}?`];
    });
}

/** Warnings about near-miss keys, and the processes that are disabled. */
export function lintDocument(
  document: JsonRecord,
  pluginNames: readonly string[],
): { warnings: string[]; disabled: string[] } {
  const warnings: string[] = [];
  const disabled: string[] = [];
  const processFields = Object.keys(ProcessBlock.properties);
  for (const entry of listProcessEntries(document)) {
    const known = entry.self ? Object.keys(ApiServiceBlock.properties) : processFields;
    warnings.push(...unknownKeyNotes(entry.block, entry.path, known));
    if (!entry.self && entry.block.enabled !== true) disabled.push(entry.process_name);
  }
  const host = document[HOST_SECTION];
  if (isJsonRecord(host))
    warnings.push(...unknownKeyNotes(host, [HOST_SECTION], [...HOST_KEYS, ...pluginNames]));
  return { warnings, disabled };
}
