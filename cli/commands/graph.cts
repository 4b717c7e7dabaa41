/** `stackd graph [--dot] [--all]`: the dependency graph as an indented tree, or Graphviz. */
import type { GraphEdge } from '../../plugins/graph/schemas.js';
import type { ClientContext } from '../context.cjs';
import { listProcesses } from '../processes.cjs';

export interface GraphOptions {
  readonly dot: boolean;
  readonly all: boolean;
}

/** Every edge of the stack: the union of each process's one-hop view. */
async function stackEdges(
  context: ClientContext,
  scope: string,
): Promise<{
  names: string[];
  edges: GraphEdge[];
}> {
  const names = (await listProcesses(context.api)).map((entry) => entry.process_name);
  const views = await Promise.all(
    names.map(
      (name) =>
        context.api.call('GET', '/process/dependency-graph', {
          query: { process_name: name, scope },
        }) as Promise<{ edges: GraphEdge[] }>,
    ),
  );
  const seen = new Map<string, GraphEdge>();
  for (const view of views)
    for (const edge of view.edges) seen.set(`${edge.source}\u0000${edge.target}`, edge);
  return { names, edges: [...seen.values()] };
}

function waitOf(edge: GraphEdge): string {
  return `${edge.signals.join(', ')}; ${edge.strength}`;
}

/** Indented lines: each process without dependencies, and under it what waits for it. */
export function treeLines(names: readonly string[], edges: readonly GraphEdge[]): string[] {
  const dependents = new Map<string, GraphEdge[]>();
  for (const edge of edges)
    dependents.set(edge.source, [...(dependents.get(edge.source) ?? []), edge]);
  const hasDependency = new Set(edges.map((edge) => edge.target));
  const roots = names.filter((name) => !hasDependency.has(name));
  const lines: string[] = [];
  const walk = (name: string, prefix: string, path: ReadonlySet<string>): void => {
    const children = dependents.get(name) ?? [];
    children.forEach((edge, index) => {
      const last = index === children.length - 1;
      const cycle = path.has(edge.target) ? ' (cycle)' : '';
      lines.push(`${prefix}${last ? '└─' : '├─'} ${edge.target}  waits: ${waitOf(edge)}${cycle}`);
      if (cycle === '')
        walk(edge.target, `${prefix}${last ? '   ' : '│  '}`, new Set([...path, edge.target]));
    });
  };
  for (const root of roots) {
    lines.push(root);
    walk(root, '', new Set([root]));
  }
  // Processes only reachable through a cycle have no root: list them too.
  const shown = new Set(lines.map((line) => line.replace(/^[│├└─\s]+/, '').split('  waits:')[0]));
  for (const name of names) if (!shown.has(name)) lines.push(`${name}  (in a dependency cycle)`);
  return lines;
}

/** Graphviz source: edges from dependency to dependent, labelled with the wait. */
export function dotSource(names: readonly string[], edges: readonly GraphEdge[]): string {
  const quote = (text: string): string => JSON.stringify(text);
  return [
    'digraph stackd {',
    '  rankdir=LR;',
    ...names.map((name) => `  ${quote(name)};`),
    ...edges.map(
      (edge) => `  ${quote(edge.source)} -> ${quote(edge.target)} [label=${quote(waitOf(edge))}];`,
    ),
    '}',
  ].join('\n');
}

/** Run `graph`. */
export async function graph(context: ClientContext, options: GraphOptions): Promise<void> {
  const { names, edges } = await stackEdges(context, options.all ? 'all' : 'runtime');
  context.out(`${options.dot ? dotSource(names, edges) : treeLines(names, edges).join('\n')}\n`);
}
