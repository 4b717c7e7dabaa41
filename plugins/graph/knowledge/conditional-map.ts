/**
 * The configuration-dependent startup map (signal `conditional_startup_map`): key → keys it
 * needs first, built from the shipped base map and rules applied to what is enabled.
 */
import type { ConditionalRule, MountProvider, StackKnowledge } from './knowledge.js';
import type { GraphEntry } from '../stack/stack-entries.js';

/** Config key → entries of that key, in file order. */
export type EntriesByKey = ReadonlyMap<string, readonly GraphEntry[]>;

/** Config key → the keys it depends on. */
export type KeyDependencyMap = ReadonlyMap<string, ReadonlySet<string>>;

/** Is the key enabled: its block or one of its instances (with `flag` true, when given)? */
export function isKeyEnabled(byKey: EntriesByKey, key: string, flag?: string): boolean {
  return (byKey.get(key) ?? []).some(
    (entry) => entry.enabled && (flag === undefined || entry.block[flag] === true),
  );
}

/** The providers one mount instance uses (any of a provider's conditions selects it). */
export function providersOfMount(entry: GraphEntry, knowledge: StackKnowledge): MountProvider[] {
  if (!knowledge.mountKeys.has(entry.config_key)) return [];
  const rawKeyType = typeof entry.block.key_type === 'string' ? entry.block.key_type : '';
  const keyType = rawKeyType.trim().toLowerCase();
  const normalizedKeyType = knowledge.legacyCoreRefs.get(keyType) ?? keyType;
  return knowledge.mountProviders.filter(
    (provider) =>
      (provider.when_flag !== undefined && entry.block[provider.when_flag] === true) ||
      (provider.when_key_type !== undefined && normalizedKeyType === provider.when_key_type) ||
      (provider.when_core_ref !== undefined && entry.coreRefs.includes(provider.when_core_ref)),
  );
}

function applyRule(
  map: Map<string, Set<string>>,
  rule: ConditionalRule,
  byKey: EntriesByKey,
  knowledge: StackKnowledge,
): void {
  for (const dependent of rule.dependents) {
    switch (rule.kind) {
      case 'add_enabled': {
        const enabled = rule.keys.filter((key) => isKeyEnabled(byKey, key, rule.instance_flag));
        if (enabled.length === 0) break;
        const set = map.get(dependent) ?? new Set<string>();
        for (const key of enabled) set.add(key);
        map.set(dependent, set);
        break;
      }
      case 'replace_with_enabled': {
        const enabled = rule.keys.filter((key) => isKeyEnabled(byKey, key, rule.instance_flag));
        // Nothing enabled leaves the entry as it was (bazarr keeps its postgres).
        if (enabled.length > 0) map.set(dependent, new Set(enabled));
        break;
      }
      case 'add_when_own_flag': {
        if (!isKeyEnabled(byKey, dependent, rule.flag)) break;
        const set = map.get(dependent) ?? new Set<string>();
        for (const key of rule.keys) set.add(key);
        map.set(dependent, set);
        break;
      }
      case 'mount_providers': {
        const used = new Set<string>();
        for (const entry of byKey.get(dependent) ?? [])
          if (entry.enabled)
            for (const provider of providersOfMount(entry, knowledge)) used.add(provider.key);
        if (used.size === 0) map.delete(dependent);
        else map.set(dependent, used);
        break;
      }
    }
  }
}

/** The aggregate conditional map for the whole configuration. */
export function buildConditionalMap(
  byKey: EntriesByKey,
  knowledge: StackKnowledge,
): KeyDependencyMap {
  const map = new Map<string, Set<string>>();
  for (const [key, deps] of knowledge.conditionalBase) map.set(key, new Set(deps));
  for (const rule of knowledge.conditionalRules) applyRule(map, rule, byKey, knowledge);
  return map;
}

/** Keys whose conditional entry is per instance (the dependents of `mount_providers` rules). */
function isPerInstanceKey(key: string, knowledge: StackKnowledge): boolean {
  return knowledge.conditionalRules.some(
    (rule) => rule.kind === 'mount_providers' && rule.dependents.includes(key),
  );
}

/**
 * The conditional dependencies of one process: its key's aggregate entry, except for
 * instance-scoped mount keys, where only the providers this instance itself uses count.
 */
export function conditionalDepsOfEntry(
  entry: GraphEntry,
  aggregate: KeyDependencyMap,
  knowledge: StackKnowledge,
): ReadonlySet<string> {
  if (isPerInstanceKey(entry.config_key, knowledge))
    return new Set(providersOfMount(entry, knowledge).map((provider) => provider.key));
  return aggregate.get(entry.config_key) ?? new Set();
}
