/**
 * The key-level rows of a process's graph: what it needs first (`dependency_rows`), what needs
 * it (`dependent_rows`). Rows summarise the hard_runtime
 * relations per config key and add the keys the static and conditional maps name even when the
 * configuration has no block for them (state `missing`).
 */
import { compareText } from '../../../sdk/index.js';
import { conditionalDepsOfEntry } from '../knowledge/conditional-map.js';
import type { DependencyRow, DependentRow } from '../schemas.js';
import {
  combineStrength,
  sortedSignals,
  strengthOfSignal,
  type SignalName,
} from '../knowledge/signals.js';
import type { GraphEntry } from '../stack/stack-entries.js';
import type { RelationMap, StackGraph } from '../stack/stack-graph.js';

/** The state of one process (live status, `disabled` or `unknown`). */
export type StateOf = (entry: GraphEntry) => string;

const STATE_RANK = [
  'running',
  'starting',
  'backoff',
  'stopping',
  'crashed',
  'stopped',
  'unknown',
  'disabled',
];

/** The state of a group of processes: `missing` when empty, else the most alive member's. */
export function groupState(entries: readonly GraphEntry[], stateOf: StateOf): string {
  let best: string | undefined;
  let bestRank = Number.POSITIVE_INFINITY;
  for (const entry of entries) {
    const state = stateOf(entry);
    const rank = STATE_RANK.indexOf(state);
    const effective = rank === -1 ? STATE_RANK.length : rank;
    if (effective < bestRank) [best, bestRank] = [state, effective];
  }
  return best ?? 'missing';
}

/** Display name of a key, else the list name of its first process, else the key. */
export function labelOfKey(graph: StackGraph, key: string): string {
  return graph.knowledge.displayNames.get(key) ?? graph.index.entriesOfKey(key)[0]?.name ?? key;
}

const NO_RELATIONS: RelationMap = new Map();

interface KeyGroup {
  readonly key: string;
  readonly signals: Set<SignalName>;
  readonly entries: GraphEntry[];
  /** Named by a map (kept as `missing` when the configuration has no block for it). */
  fromMap: boolean;
}

/** Hard relations grouped by the related processes' key (soft signals left out). */
function groupByKey(graph: StackGraph, relations: RelationMap): Map<string, KeyGroup> {
  const groups = new Map<string, KeyGroup>();
  for (const [index, signals] of relations) {
    if (combineStrength(signals) !== 'hard_runtime') continue;
    const entry = graph.entries[index];
    if (entry === undefined) continue;
    let group = groups.get(entry.config_key);
    if (group === undefined) {
      group = { key: entry.config_key, signals: new Set(), entries: [], fromMap: false };
      groups.set(entry.config_key, group);
    }
    group.entries.push(entry);
    for (const signal of signals)
      if (strengthOfSignal(signal) !== 'soft_linkage') group.signals.add(signal);
  }
  return groups;
}

/** Ordered groups: the map-named keys first (in the given order), then the rest sorted. */
function orderGroups(
  graph: StackGraph,
  related: Map<string, KeyGroup>,
  named: readonly (readonly [string, SignalName])[],
): KeyGroup[] {
  const ordered: KeyGroup[] = [];
  const placed = new Map<string, KeyGroup>();
  for (const [key, signal] of named) {
    let group = placed.get(key);
    if (group === undefined) {
      const found = related.get(key);
      // The key has blocks but none is related (scoped away): not a dependency of this one.
      if (found === undefined && graph.index.entriesOfKey(key).length > 0) continue;
      group = found ?? { key, signals: new Set(), entries: [], fromMap: true };
      group.fromMap = true;
      placed.set(key, group);
      ordered.push(group);
    }
    group.signals.add(signal);
  }
  const rest = [...related.values()].filter((group) => !placed.has(group.key));
  rest.sort((a, b) => compareText(a.key, b.key));
  return [...ordered, ...rest];
}

/**
 * Map-named dependency keys of a key: static core, conditional (sorted), non-core. With an
 * entry, the conditional part is that instance's own (mount instances differ); without one
 * (a key the configuration lacks), the aggregate map's.
 */
function namedDependencies(
  graph: StackGraph,
  key: string,
  entry: GraphEntry | undefined,
): [string, SignalName][] {
  const named: [string, SignalName][] = [];
  for (const dep of graph.coreDeps.get(key) ?? []) named.push([dep, 'core_service_map']);
  const conditional =
    entry === undefined
      ? (graph.conditional.get(key) ?? new Set<string>())
      : conditionalDepsOfEntry(entry, graph.conditional, graph.knowledge);
  for (const dep of [...conditional].sort()) named.push([dep, 'conditional_startup_map']);
  for (const dep of graph.knowledge.nonCoreDependencies.get(key) ?? [])
    named.push([dep, 'non_core_dependency_map']);
  return named;
}

/** Map-named dependent keys of a process: keys whose maps list its key. */
function namedDependents(graph: StackGraph, target: GraphEntry): [string, SignalName][] {
  const key = target.config_key;
  const named: [string, SignalName][] = [];
  for (const [core, deps] of graph.coreDeps)
    if (deps.includes(key)) named.push([core, 'core_service_map']);
  for (const [dependent, deps] of graph.conditional)
    if (deps.has(key)) named.push([dependent, 'conditional_startup_map']);
  for (const [dependent, deps] of graph.knowledge.nonCoreDependencies)
    if (deps.includes(key)) named.push([dependent, 'non_core_dependency_map']);
  return named;
}

function hardFacts(signals: Iterable<SignalName>): {
  signals: SignalName[];
  classification: 'hard';
  strength: ReturnType<typeof combineStrength>;
} {
  const sorted = sortedSignals(signals);
  return { signals: sorted, classification: 'hard', strength: combineStrength(sorted) };
}

/** What the target needs first, one row per config key. */
export function dependencyRowsOf(
  graph: StackGraph,
  target: GraphEntry,
  stateOf: StateOf,
): DependencyRow[] {
  const related = groupByKey(graph, graph.dependencies[target.index] ?? NO_RELATIONS);
  return orderGroups(graph, related, namedDependencies(graph, target.config_key, target)).map(
    (group) => ({
      key: group.key,
      label: labelOfKey(graph, group.key),
      state: groupState(group.entries, stateOf),
      process_count: group.entries.length,
      scoped: graph.index.isScoped(group.key),
      starter_process_name: group.entries.find((entry) => entry.enabled)?.process_name ?? null,
      ...hardFacts(group.signals),
    }),
  );
}

/** Dependency keys of a dependent group that are not running (sorted). */
function missingDepsOf(graph: StackGraph, group: KeyGroup, stateOf: StateOf): string[] {
  const byKey = new Map<string, Set<GraphEntry>>();
  for (const entry of group.entries)
    for (const [index, signals] of graph.dependencies[entry.index] ?? NO_RELATIONS) {
      const dependency = graph.entries[index];
      if (dependency === undefined || combineStrength(signals) !== 'hard_runtime') continue;
      const set = byKey.get(dependency.config_key);
      if (set === undefined) byKey.set(dependency.config_key, new Set([dependency]));
      else set.add(dependency);
    }
  for (const [key] of namedDependencies(graph, group.key, group.entries[0]))
    if (!byKey.has(key)) byKey.set(key, new Set(graph.index.entriesOfKey(key)));
  return [...byKey]
    .filter(([, entries]) => groupState([...entries], stateOf) !== 'running')
    .map(([key]) => key)
    .sort();
}

/** What needs the target, one row per config key. */
export function dependentRowsOf(
  graph: StackGraph,
  target: GraphEntry,
  stateOf: StateOf,
): DependentRow[] {
  const related = groupByKey(graph, graph.dependents[target.index] ?? NO_RELATIONS);
  return orderGroups(graph, related, namedDependents(graph, target)).map((group) => ({
    key: group.key,
    label: labelOfKey(graph, group.key),
    state: groupState(group.entries, stateOf),
    missing_deps: missingDepsOf(graph, group, stateOf),
    ...hardFacts(group.signals),
  }));
}
