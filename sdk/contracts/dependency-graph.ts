/** `graph.dependencies`: startup planning and parallel groups the graph plugin offers. */
import { createServiceRef } from '../services.js';

/** Graph scope: hard dependencies only, or soft linkage too. */
export type GraphScope = 'runtime' | 'all';

/** A set of processes that may start together. */
export interface ParallelGroup {
  readonly id: string;
  readonly label: string;
  readonly type: 'parallel';
  readonly members: readonly string[];
}

/** How to start a set of processes. */
export interface StartupPlan {
  /** Hard dependencies of each process (process names), restricted to the planned set. */
  readonly dependencies: Readonly<Record<string, readonly string[]>>;
  /** Waves: each wave's members depend only on earlier waves. */
  readonly groups: readonly (readonly string[])[];
  /**
   * Cycles found (process names). The edges inside a cycle are left out of `dependencies`, so its
   * members start in one wave once their outside dependencies are up.
   */
  readonly cycles: readonly (readonly string[])[];
}

/** The graph plugin's service. */
export interface DependencyGraphService {
  /** Plan the start of the given processes (enabled ones, at boot). */
  planStartup(processNames: readonly string[]): StartupPlan;
  /** Parallel groups shown with a process's detail. */
  parallelGroups(processName: string, scope: GraphScope): ParallelGroup[];
}

/** The service ref. */
export const dependencyGraphRef = createServiceRef<DependencyGraphService>({
  id: 'graph.dependencies',
  owner: 'graph',
});
