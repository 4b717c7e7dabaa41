/**
 * `startup_order` of a process's graph: its dependency rows in start order, the process itself,
 * then its dependent rows in start order.
 */
import { labelOfKey, type StateOf } from './key-rows.js';
import type { DependencyRow, DependentRow, StartupStep } from '../schemas.js';
import { combineStrength } from '../knowledge/signals.js';
import type { GraphEntry } from '../stack/stack-entries.js';
import type { RelationMap, StackGraph } from '../stack/stack-graph.js';
import { planWaves } from '../stack/startup-plan.js';

const NO_RELATIONS: RelationMap = new Map();

/** Rows in start order: a row comes after the rows whose processes its processes wait for. */
function startOrdered<R extends { key: string }>(
  graph: StackGraph,
  rows: readonly R[],
  entriesOf: (row: R) => readonly GraphEntry[],
): R[] {
  const rowOf = new Map<number, number>();
  rows.forEach((row, position) => {
    for (const entry of entriesOf(row)) rowOf.set(entry.index, position);
  });
  const deps = rows.map((row, position) => {
    const needs: number[] = [];
    for (const entry of entriesOf(row))
      for (const [index, signals] of graph.dependencies[entry.index] ?? NO_RELATIONS) {
        const other = rowOf.get(index);
        if (
          other !== undefined &&
          other !== position &&
          combineStrength(signals) === 'hard_runtime'
        )
          needs.push(other);
      }
    return needs;
  });
  return planWaves(deps)
    .groups.flat()
    .map((position) => rows[position] as R);
}

/** Dependencies first (in start order), then the target, then its dependents. */
export function startupOrderOf(
  graph: StackGraph,
  target: GraphEntry,
  dependencyRows: readonly DependencyRow[],
  dependentRows: readonly DependentRow[],
  stateOf: StateOf,
): StartupStep[] {
  const entriesOfKey = (row: { key: string }): readonly GraphEntry[] =>
    graph.index.entriesOfKey(row.key);
  const step = (row: DependencyRow | DependentRow): StartupStep => ({
    key: row.key,
    label: row.label,
    state: row.state,
    signals: row.signals,
    classification: row.classification,
    strength: row.strength,
  });
  const own: StartupStep = {
    key: target.config_key,
    label:
      target.instance_name === null ? labelOfKey(graph, target.config_key) : target.process_name,
    state: stateOf(target),
    signals: [],
    classification: 'hard',
    strength: 'hard_configured',
  };
  return [
    ...startOrdered(graph, dependencyRows, entriesOfKey).map(step),
    own,
    ...startOrdered(graph, dependentRows, entriesOfKey).map(step),
  ];
}
