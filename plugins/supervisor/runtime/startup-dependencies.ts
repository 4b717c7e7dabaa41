/** Hard dependencies for the boot order, from the graph plugin's startup plan. */
import type { DependencyGraphService, Logger } from '../../../sdk/index.js';

/** name → the names it waits for at boot; members of a cycle do not wait for each other. */
export function startupDependencies(
  graph: DependencyGraphService | undefined,
  names: readonly string[],
  logger: Logger,
): (name: string) => readonly string[] {
  if (graph === undefined) return () => [];
  const plan = graph.planStartup(names);
  const cycleOf = new Map<string, Set<string>>();
  for (const cycle of plan.cycles) {
    logger.warn(`dependency cycle: ${cycle.join(' → ')}; its members start without ordering`);
    for (const member of cycle) cycleOf.set(member, new Set(cycle));
  }
  return (name) =>
    (plan.dependencies[name] ?? []).filter((other) => cycleOf.get(name)?.has(other) !== true);
}
