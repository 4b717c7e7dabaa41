/**
 * The graph plugin's service: derives the whole-stack graph from the configuration once per
 * configuration version (invalidated on change), answers process views for the route, and plans
 * the supervisor's startup. Live states come from the supervisor when it is loaded.
 */
import type {
  DependencyGraphService,
  GraphScope,
  JsonRecord,
  Logger,
  ParallelGroup,
  ProcessSupervisor,
  StartupPlan,
} from '../../sdk/index.js';
import type { StateOf } from './views/key-rows.js';
import type { StackKnowledge } from './knowledge/knowledge.js';
import { findProcess } from './stack/process-lookup.js';
import { buildProcessView, linkedRows, parallelGroupsOf } from './views/process-view.js';
import type { DependencyGraphResponse } from './schemas.js';
import { ordersStartup } from './knowledge/signals.js';
import { API_SERVICE_KEY } from '../../sdk/index.js';
import type { GraphEntry } from './stack/stack-entries.js';
import {
  buildStackGraph,
  dependenciesWithSiblings,
  dependentsWithSiblings,
  type StackGraph,
} from './stack/stack-graph.js';
import { planWaves } from './stack/startup-plan.js';

/** The derived graph of one configuration version, with its startup cycles. */
export interface GraphSnapshot {
  readonly graph: StackGraph;
  /** Cycles of the startup relations over every configured process (entry indexes). */
  readonly cycles: readonly (readonly number[])[];
}

/** What the service reads from its surroundings. */
export interface GraphServiceOptions {
  readonly readDocument: () => JsonRecord;
  /** The knowledge for a document (its `stackd.graph` slice may extend the shipped data). */
  readonly knowledge: (document: JsonRecord) => StackKnowledge;
  /** The supervisor when loaded (asked at call time), else undefined. */
  readonly supervisor: () => ProcessSupervisor | undefined;
  readonly logger: Logger;
  readonly now?: () => Date;
}

/** Dependencies that order the start, as entry indexes (shared by snapshot and planning). */
function startupDeps(graph: StackGraph, entry: GraphEntry): number[] {
  const deps: number[] = [];
  for (const [index, signals] of graph.dependencies[entry.index] ?? [])
    if (ordersStartup(signals)) deps.push(index);
  return deps;
}

/** Derive the snapshot of a document (pure). */
export function snapshotOf(document: JsonRecord, knowledge: StackKnowledge): GraphSnapshot {
  const graph = buildStackGraph(document, knowledge);
  const plan = planWaves(graph.entries.map((entry) => startupDeps(graph, entry)));
  return { graph, cycles: plan.cycles };
}

/**
 * The state of each process: the supervisor's live status (a stopped disabled process shows
 * `disabled`); without a supervisor, `unknown` for enabled and `disabled` for disabled ones.
 * The API service entry is the host itself, so it is `running`.
 */
export function stateFunction(supervisor: ProcessSupervisor | undefined): StateOf {
  return (entry) => {
    if (entry.config_key === API_SERVICE_KEY) return 'running';
    const status = supervisor?.state(entry.process_name)?.status;
    if (status === undefined) return entry.enabled ? 'unknown' : 'disabled';
    return status === 'stopped' && !entry.enabled ? 'disabled' : status;
  };
}

const cycleText = (cycle: readonly string[]): string => cycle.join(', ');

/** The graph service (see the file comment). */
export class GraphService implements DependencyGraphService {
  private snapshot: GraphSnapshot | undefined;
  private readonly now: () => Date;

  constructor(private readonly options: GraphServiceOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** Forget the derived graph (the configuration changed). */
  invalidate(): void {
    this.snapshot = undefined;
  }

  /** The derived graph of the current configuration, built on first use. */
  current(): GraphSnapshot {
    if (this.snapshot === undefined) {
      const document = this.options.readDocument();
      this.snapshot = snapshotOf(document, this.options.knowledge(document));
      for (const cycle of this.snapshot.cycles)
        this.options.logger.warn(
          `dependency cycle among ${cycleText(this.names(cycle))}: they start without ordering between them`,
          { cycle: this.names(cycle) },
        );
    }
    return this.snapshot;
  }

  private names(indexes: readonly number[]): string[] {
    const { entries } = this.current().graph;
    return indexes.map((index) => entries[index]?.process_name ?? String(index));
  }

  /** The process a request names, or undefined. */
  find(processName: string): GraphEntry | undefined {
    const { graph } = this.current();
    return findProcess(graph.entries, graph.knowledge, processName);
  }

  /** The full graph response of a process, or undefined when no process matches. */
  /** Live status by process name (what the DUMB dashboard colours its graph with). */
  statuses(): Record<string, string> {
    const supervisor = this.options.supervisor();
    if (supervisor === undefined) return {};
    return Object.fromEntries(
      supervisor.states().map((state) => [state.process_name, state.status]),
    );
  }

  view(processName: string, scope: GraphScope): DependencyGraphResponse | undefined {
    const snapshot = this.current();
    const target = this.find(processName);
    if (target === undefined) return undefined;
    return {
      ...buildProcessView(snapshot.graph, target, {
        scope,
        stateOf: stateFunction(this.options.supervisor()),
        cycles: snapshot.cycles
          .filter((cycle) => cycle.includes(target.index))
          .map((cycle) => this.names(cycle)),
        now: this.now(),
      }),
      statuses: this.statuses(),
    };
  }

  parallelGroups(processName: string, scope: GraphScope): ParallelGroup[] {
    const { graph } = this.current();
    const target = this.find(processName);
    if (target === undefined) return [];
    const stateOf = stateFunction(undefined);
    return parallelGroupsOf(
      target,
      linkedRows(graph, dependenciesWithSiblings(graph, target), scope, stateOf),
      linkedRows(graph, dependentsWithSiblings(graph, target), scope, stateOf),
    );
  }

  planStartup(processNames: readonly string[]): StartupPlan {
    const { graph } = this.current();
    const names = [...new Set(processNames)];
    const position = new Map(names.map((name, index) => [name, index]));
    const entryOf = new Map<string, GraphEntry>();
    for (const entry of graph.entries)
      if (!entryOf.has(entry.process_name)) entryOf.set(entry.process_name, entry);
    const deps = names.map((name) => {
      const entry = entryOf.get(name);
      if (entry === undefined) return [];
      const own: number[] = [];
      for (const index of startupDeps(graph, entry)) {
        const dependency = graph.entries[index];
        const at = dependency === undefined ? undefined : position.get(dependency.process_name);
        if (at !== undefined) own.push(at);
      }
      return own;
    });
    const plan = planWaves(deps);
    const nameOf = (index: number): string => names[index] as string;
    const cycles = plan.cycles.map((cycle) => cycle.map(nameOf));
    for (const cycle of cycles)
      this.options.logger.warn(
        `startup plan: dependency cycle among ${cycleText(cycle)}: starting them without ordering between them`,
        { cycle },
      );
    return {
      dependencies: Object.fromEntries(
        names.map((name, index) => [name, (plan.dependencies[index] ?? []).map(nameOf)]),
      ),
      groups: plan.groups.map((group) => group.map(nameOf)),
      cycles,
    };
  }
}
