/**
 * Finding the process a request names, forgiving as the reference's graph lookup is: exact
 * name, then any case, then ignoring spaces/dashes/underscores, then the list name
 * (`sonarr instances Anime`), then a config key, display name or alias ("postgresql",
 * "Plex Media Server"), which picks the key's first enabled process.
 */
import type { StackKnowledge } from './knowledge.js';
import type { GraphEntry } from './stack-entries.js';

const squash = (name: string): string => name.toLowerCase().replace(/[\s_-]+/g, '');

function single<T>(found: readonly T[]): T | undefined {
  return found.length === 1 ? found[0] : undefined;
}

/** The process `requested` names, or undefined. */
export function findProcess(
  entries: readonly GraphEntry[],
  knowledge: StackKnowledge,
  requested: string,
): GraphEntry | undefined {
  const exact = entries.find((entry) => entry.process_name === requested);
  if (exact !== undefined) return exact;
  const lower = requested.trim().toLowerCase();
  if (lower === '') return undefined;
  const squashed = squash(lower);
  const byName =
    single(entries.filter((entry) => entry.process_name.trim().toLowerCase() === lower)) ??
    single(entries.filter((entry) => squash(entry.process_name) === squashed)) ??
    single(entries.filter((entry) => squash(entry.name) === squashed));
  if (byName !== undefined) return byName;
  const key = knowledge.aliases.get(lower) ?? lower;
  const ofKey = entries.filter(
    (entry) => entry.config_key === key || squash(entry.config_key) === squashed,
  );
  return ofKey.find((entry) => entry.enabled) ?? ofKey[0];
}
