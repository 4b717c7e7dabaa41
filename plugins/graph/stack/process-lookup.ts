/**
 * Finding the process a request names: the sdk's one rule (exact name, then ignoring case,
 * spaces, dashes and underscores, then the list name, then a singleton's config key), then what
 * only the graph knows: a config key with instances, a display name or an alias of the shipped
 * knowledge ("postgresql", "Plex Media Server"), which picks the key's first enabled process.
 */
import { findProcessEntry, normalizeProcessName } from '../../../sdk/index.js';
import type { StackKnowledge } from '../knowledge/knowledge.js';
import type { GraphEntry } from './stack-entries.js';

/** The process `requested` names, or undefined. */
export function findProcess(
  entries: readonly GraphEntry[],
  knowledge: StackKnowledge,
  requested: string,
): GraphEntry | undefined {
  const found = findProcessEntry(entries, requested);
  if (found !== undefined) return found;
  const lower = requested.trim().toLowerCase();
  if (lower === '') return undefined;
  const squashed = normalizeProcessName(lower);
  const key = knowledge.aliases.get(lower) ?? lower;
  const ofKey = entries.filter(
    (entry) => entry.config_key === key || normalizeProcessName(entry.config_key) === squashed,
  );
  return ofKey.find((entry) => entry.enabled) ?? ofKey[0];
}
