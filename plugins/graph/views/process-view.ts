/**
 * The graph of one process (docs/original-product.md §7): its rows, the processes linked to it either way,
 * nodes, edges (dependency → dependent), parallel groups and context. A one-hop view over the
 * whole-stack relations; pure apart from the state function it is given.
 */
import { compareLabels, compareText, isoSeconds } from '../../../sdk/index.js';
import type { GraphScope, ParallelGroup } from '../../../sdk/index.js';
import { conditionalDepsOfEntry } from '../knowledge/conditional-map.js';
import { dependencyRowsOf, dependentRowsOf, type StateOf } from './key-rows.js';
import { startupOrderOf } from './startup-order.js';
import type {
  DependencyGraphResponse,
  GraphContext,
  GraphEdge,
  GraphNode,
  LinkedRow,
} from '../schemas.js';
import {
  classify,
  combineStrength,
  sortedSignals,
  strengthOfSignal,
  type SignalName,
} from '../knowledge/signals.js';
import type { GraphEntry } from '../stack/stack-entries.js';
import {
  dependenciesWithSiblings,
  dependentsWithSiblings,
  type RelationMap,
  type StackGraph,
} from '../stack/stack-graph.js';

const STRENGTH_ORDER = { hard_runtime: 0, hard_configured: 1, soft_linkage: 2 } as const;

/** Linked rows of one direction; soft signals only with scope `all`. Hard rows first, then by label. */
export function linkedRows(
  graph: StackGraph,
  relations: RelationMap,
  scope: GraphScope,
  stateOf: StateOf,
): LinkedRow[] {
  const rows: LinkedRow[] = [];
  for (const [index, all] of relations) {
    const entry = graph.entries[index];
    if (entry === undefined) continue;
    const signals = sortedSignals(
      scope === 'all'
        ? all
        : [...all].filter((signal: SignalName) => strengthOfSignal(signal) !== 'soft_linkage'),
    );
    if (signals.length === 0) continue;
    const strength = combineStrength(signals);
    rows.push({
      process_name: entry.process_name,
      key: entry.config_key,
      label: entry.name,
      state: stateOf(entry),
      signals,
      classification: classify(strength),
      strength,
    });
  }
  return rows.sort(
    (a, b) =>
      STRENGTH_ORDER[a.strength] - STRENGTH_ORDER[b.strength] ||
      compareLabels(a.label, b.label) ||
      compareText(a.process_name, b.process_name),
  );
}

/** `core` for a process the maps give dependencies to, else `dependency`. */
export function contextOf(graph: StackGraph, target: GraphEntry): GraphContext {
  const key = target.config_key;
  const { knowledge } = graph;
  const isCore =
    knowledge.coreServices.has(key) ||
    knowledge.nonCoreDependencies.has(key) ||
    conditionalDepsOfEntry(target, graph.conditional, knowledge).size > 0;
  return {
    mode: isCore ? 'core' : 'dependency',
    key,
    core: {
      key,
      name: knowledge.displayNames.get(key) ?? target.process_name,
      dependencies: [...(graph.coreDeps.get(key) ?? [])],
    },
  };
}

const unique = (names: Iterable<string>): string[] => [...new Set(names)].sort();

/**
 * Parallel groups: the hard prerequisites (may start together), the process itself, and its
 * dependents. Every group has type `parallel` as the API reference shows (the process alone is a group of
 * one).
 */
export function parallelGroupsOf(
  target: GraphEntry,
  outgoing: readonly LinkedRow[],
  incoming: readonly LinkedRow[],
): ParallelGroup[] {
  const groups: ParallelGroup[] = [];
  const before = unique(
    outgoing
      .filter((row) => row.classification === 'hard' && row.process_name !== target.process_name)
      .map((row) => row.process_name),
  );
  if (before.length > 0)
    groups.push({
      id: 'pre_core',
      label: 'Parallel prerequisites',
      type: 'parallel',
      members: before,
    });
  groups.push({
    id: 'core_target',
    label: 'Core target',
    type: 'parallel',
    members: [target.process_name],
  });
  const after = unique(incoming.map((row) => row.process_name));
  if (after.length > 0)
    groups.push({ id: 'post_core', label: 'Dependents', type: 'parallel', members: after });
  return groups;
}

function nodesOf(target: GraphEntry, linked: readonly LinkedRow[], stateOf: StateOf): GraphNode[] {
  const nodes = new Map<string, GraphNode>();
  nodes.set(target.process_name, {
    id: target.process_name,
    process_name: target.process_name,
    key: target.config_key,
    label: target.name,
    state: stateOf(target),
  });
  for (const row of linked)
    if (!nodes.has(row.process_name))
      nodes.set(row.process_name, {
        id: row.process_name,
        process_name: row.process_name,
        key: row.key,
        label: row.label,
        state: row.state,
      });
  return [...nodes.values()].sort(
    (a, b) => compareLabels(a.label, b.label) || compareText(a.id, b.id),
  );
}

function edgesOf(
  target: GraphEntry,
  outgoing: readonly LinkedRow[],
  incoming: readonly LinkedRow[],
): GraphEdge[] {
  const edge = (source: string, to: string, row: LinkedRow): GraphEdge => ({
    source,
    target: to,
    signals: row.signals,
    strength: row.strength,
    classification: row.classification,
  });
  return [
    ...outgoing.map((row) => edge(row.process_name, target.process_name, row)),
    ...incoming.map((row) => edge(target.process_name, row.process_name, row)),
  ];
}

/** What the view needs besides the graph: scope, states, cycles, the clock. */
export interface ViewOptions {
  readonly scope: GraphScope;
  readonly stateOf: StateOf;
  /** Startup cycles the target is part of (process names). */
  readonly cycles: readonly (readonly string[])[];
  readonly now: Date;
}

/** The full response for one process. */
export function buildProcessView(
  graph: StackGraph,
  target: GraphEntry,
  options: ViewOptions,
): Omit<DependencyGraphResponse, 'statuses'> {
  const { scope, stateOf } = options;
  const outgoing = linkedRows(graph, dependenciesWithSiblings(graph, target), scope, stateOf);
  const incoming = linkedRows(graph, dependentsWithSiblings(graph, target), scope, stateOf);
  const dependencyRows = dependencyRowsOf(graph, target, stateOf);
  const dependentRows = dependentRowsOf(graph, target, stateOf);
  return {
    process_name: target.process_name,
    config_key: target.config_key,
    context: contextOf(graph, target),
    scope,
    startup_order: startupOrderOf(graph, target, dependencyRows, dependentRows, stateOf),
    dependency_rows: dependencyRows,
    dependent_rows: dependentRows,
    linked_outgoing_rows: outgoing,
    linked_incoming_rows: incoming,
    nodes: nodesOf(target, [...outgoing, ...incoming], stateOf),
    edges: edgesOf(target, outgoing, incoming),
    parallel_groups: parallelGroupsOf(target, outgoing, incoming).map((group) => ({
      ...group,
      members: [...group.members],
    })),
    cycles: options.cycles.map((cycle) => [...cycle]),
    dependency_truth_table: graph.knowledge.truthTable,
    updated_at: isoSeconds(options.now),
  };
}
