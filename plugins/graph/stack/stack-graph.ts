/**
 * The whole-stack relation graph of one configuration: for every process, which processes it
 * depends on and through which signals (docs/original-product.md §7, outgoing rules). Incoming relations
 * are the same relations seen from the other end, so an edge carries the same signals whichever
 * process the graph is asked for. Built once per configuration version; pure.
 */
import type { JsonRecord } from '../../../sdk/index.js';
import {
  buildConditionalMap,
  conditionalDepsOfEntry,
  providersOfMount,
  type KeyDependencyMap,
} from '../knowledge/conditional-map.js';
import { EntryIndex } from './entry-index.js';
import type { StackKnowledge } from '../knowledge/knowledge.js';
import type { SignalName } from '../knowledge/signals.js';
import { listGraphEntries, type GraphEntry } from './stack-entries.js';
import { dirWaitsOf, mountWaitsOf, urlWaitsOf } from './wait-fields.js';

/** Related entry index → the signals of that relation. */
export type RelationMap = ReadonlyMap<number, ReadonlySet<SignalName>>;

/** Every relation of one configuration. */
export interface StackGraph {
  readonly entries: readonly GraphEntry[];
  readonly index: EntryIndex;
  readonly knowledge: StackKnowledge;
  /** Aggregate conditional startup map. */
  readonly conditional: KeyDependencyMap;
  /** Effective static core dependencies of every core key. */
  readonly coreDeps: ReadonlyMap<string, readonly string[]>;
  /**
   * dependencies[i]: what entry i depends on (hard and soft signals), sibling instances aside
   * (see {@link dependenciesWithSiblings}).
   */
  readonly dependencies: readonly RelationMap[];
  /** dependents[i]: what depends on entry i (the same relations, inverted). */
  readonly dependents: readonly RelationMap[];
}

/** A block field as a lower-cased trimmed string ('' when missing). */
function fieldText(block: JsonRecord | undefined, field: string): string {
  const value = block?.[field];
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/**
 * Effective static core dependencies: a dependency with `unless` is dropped when the core's
 * block (its first entry; none counts as empty fields) has one of the listed values.
 */
export function effectiveCoreDeps(
  index: EntryIndex,
  knowledge: StackKnowledge,
): Map<string, readonly string[]> {
  const result = new Map<string, readonly string[]>();
  for (const [key, deps] of knowledge.coreServices) {
    const block = index.entriesOfKey(key)[0]?.block;
    result.set(
      key,
      deps
        .filter(
          (dep) =>
            dep.unless === undefined || !dep.unless.in.includes(fieldText(block, dep.unless.field)),
        )
        .map((dep) => dep.key),
    );
  }
  return result;
}

class RelationCollector {
  readonly found = new Map<number, Set<SignalName>>();

  constructor(private readonly source: GraphEntry) {}

  add(entries: Iterable<GraphEntry>, signal: SignalName): void {
    for (const entry of entries) {
      if (entry === this.source) continue;
      const signals = this.found.get(entry.index);
      if (signals === undefined) this.found.set(entry.index, new Set([signal]));
      else signals.add(signal);
    }
  }
}

interface DerivationContext {
  readonly index: EntryIndex;
  readonly knowledge: StackKnowledge;
  readonly conditional: KeyDependencyMap;
  readonly coreDeps: ReadonlyMap<string, readonly string[]>;
}

/** What one process depends on, with the signals of each relation. */
export function dependenciesOf(source: GraphEntry, context: DerivationContext): RelationMap {
  const { index, knowledge } = context;
  const out = new RelationCollector(source);
  for (const key of context.coreDeps.get(source.config_key) ?? []) {
    const entries = index.entriesOfKey(key);
    out.add(
      index.isScoped(key)
        ? entries.filter((entry) => entry.coreRefs.includes(source.config_key))
        : entries,
      'core_service_map',
    );
  }
  // Sibling instances (the own key) are core_service_fields too, but they are added per view
  // (withSiblings): stored for every process they would grow with the square of a key's instances.
  for (const ref of source.coreRefs) out.add(index.resolveRef(ref, source), 'core_service_fields');
  for (const wait of urlWaitsOf(source.block)) {
    for (const ref of wait.refs) out.add(index.resolveRef(ref, source), 'wait_for_url');
    if (wait.localPort !== undefined) out.add(index.onPort(wait.localPort, source), 'wait_for_url');
  }
  for (const wait of dirWaitsOf(source.block)) {
    for (const ref of wait.refs) out.add(index.resolveRef(ref, source), 'wait_for_dir');
    if (wait.path !== '') out.add(index.mountingPath(wait.path, source), 'wait_for_dir');
  }
  for (const path of mountWaitsOf(source.block))
    out.add(index.mountingPath(path, source), 'wait_for_mounts');
  const primaryCore = [...source.coreRefs].sort()[0];
  for (const provider of providersOfMount(source, knowledge)) {
    const entries = index.entriesOfKey(provider.key);
    out.add(
      provider.scope_by_core === true && primaryCore !== undefined
        ? entries.filter((entry) => entry.coreRefs.includes(primaryCore))
        : entries,
      provider.signal,
    );
  }
  for (const key of knowledge.nonCoreDependencies.get(source.config_key) ?? [])
    out.add(index.entriesOfKey(key), 'non_core_dependency_map');
  for (const key of [...conditionalDepsOfEntry(source, context.conditional, knowledge)].sort()) {
    const entries = index.entriesOfKey(key);
    // An instance-scoped provider only counts when another signal already tied it to us.
    out.add(
      index.isScoped(key) ? entries.filter((entry) => out.found.has(entry.index)) : entries,
      'conditional_startup_map',
    );
  }
  for (const map of knowledge.softLinks)
    for (const key of map.links.get(source.config_key) ?? [])
      out.add(index.entriesOfKey(key), map.signal);
  return out.found;
}

/**
 * Does `source` count `candidate` as a sibling: another instance of its key (for an
 * instance-scoped key and a source attached to cores, one attached to a same core)?
 */
function isSibling(graph: StackGraph, source: GraphEntry, candidate: GraphEntry): boolean {
  if (candidate === source || candidate.config_key !== source.config_key) return false;
  if (!graph.index.isScoped(source.config_key) || source.coreRefs.length === 0) return true;
  return candidate.coreRefs.some((ref) => source.coreRefs.includes(ref));
}

function mergeSiblings(
  relations: RelationMap,
  siblings: readonly GraphEntry[],
): Map<number, ReadonlySet<SignalName>> {
  const merged = new Map(relations);
  for (const sibling of siblings) {
    const signals = merged.get(sibling.index);
    merged.set(
      sibling.index,
      signals === undefined
        ? new Set(['core_service_fields'])
        : new Set([...signals, 'core_service_fields']),
    );
  }
  return merged;
}

/** Everything `target` depends on, sibling instances included (they name the same service). */
export function dependenciesWithSiblings(graph: StackGraph, target: GraphEntry): RelationMap {
  const siblings = graph.index
    .entriesOfKey(target.config_key)
    .filter((other) => isSibling(graph, target, other));
  return mergeSiblings(graph.dependencies[target.index] ?? new Map(), siblings);
}

/** Everything that depends on `target`, sibling instances included. */
export function dependentsWithSiblings(graph: StackGraph, target: GraphEntry): RelationMap {
  const siblings = graph.index
    .entriesOfKey(target.config_key)
    .filter((other) => isSibling(graph, other, target));
  return mergeSiblings(graph.dependents[target.index] ?? new Map(), siblings);
}

/** Derive every relation of a configuration document. */
export function buildStackGraph(document: JsonRecord, knowledge: StackKnowledge): StackGraph {
  const entries = listGraphEntries(document, knowledge.legacyCoreRefs);
  const index = new EntryIndex(entries, knowledge);
  const conditional = buildConditionalMap(index.byKey, knowledge);
  const coreDeps = effectiveCoreDeps(index, knowledge);
  const context = { index, knowledge, conditional, coreDeps };
  const dependencies = entries.map((entry) => dependenciesOf(entry, context));
  const dependents = entries.map(() => new Map<number, ReadonlySet<SignalName>>());
  dependencies.forEach((relations, dependent) => {
    for (const [dependency, signals] of relations) dependents[dependency]?.set(dependent, signals);
  });
  return { entries, index, knowledge, conditional, coreDeps, dependencies, dependents };
}
