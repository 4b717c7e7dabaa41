/**
 * Startup planning over a dependency graph of nodes 0..n-1, in time linear in nodes + edges:
 * Tarjan's strongly connected components name the cycles; the edges inside a cycle are dropped
 * (so nothing waits on a partner that waits on it); Kahn's algorithm then assigns each node the
 * earliest wave after all its remaining dependencies. Both are iterative: a 100 000-node chain
 * needs no deep recursion.
 */

/** The plan, by node number. */
export interface NodePlan {
  /** Waves: each node depends only on nodes of earlier waves; input order within a wave. */
  readonly groups: number[][];
  /** Each cycle's members (ascending), cycles in order of their smallest member. */
  readonly cycles: number[][];
  /** The dependencies kept for each node: self-loops and edges inside a cycle removed. */
  readonly dependencies: number[][];
}

/** Tarjan's algorithm without recursion; returns the component id of every node. */
export function stronglyConnectedComponents(deps: readonly (readonly number[])[]): Int32Array {
  const count = deps.length;
  const order = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const component = new Int32Array(count).fill(-1);
  const onStack = new Uint8Array(count);
  const stack: number[] = [];
  const callStack: number[] = [];
  const edgeCursor = new Int32Array(count);
  let nextOrder = 0;
  let nextComponent = 0;
  for (let root = 0; root < count; root += 1) {
    if (order[root] !== -1) continue;
    callStack.push(root);
    while (callStack.length > 0) {
      const node = callStack[callStack.length - 1] as number;
      if (order[node] === -1) {
        order[node] = low[node] = nextOrder++;
        stack.push(node);
        onStack[node] = 1;
      }
      const edges = deps[node] ?? [];
      const cursor = edgeCursor[node] as number;
      if (cursor < edges.length) {
        edgeCursor[node] = cursor + 1;
        const next = edges[cursor] as number;
        if (order[next] === -1) callStack.push(next);
        else if (onStack[next] === 1)
          low[node] = Math.min(low[node] as number, order[next] as number);
        continue;
      }
      callStack.pop();
      const parent = callStack[callStack.length - 1];
      if (parent !== undefined) low[parent] = Math.min(low[parent] as number, low[node] as number);
      if (low[node] === order[node]) {
        let member: number;
        do {
          member = stack.pop() as number;
          onStack[member] = 0;
          component[member] = nextComponent;
        } while (member !== node);
        nextComponent += 1;
      }
    }
  }
  return component;
}

/**
 * Plan the start of nodes 0..n-1 where `deps[i]` lists the nodes i needs first. Duplicate and
 * out-of-range entries are ignored. The working sets are flat typed arrays (compressed rows):
 * no per-node allocation besides the returned lists, so large plans stay linear in practice too.
 */
export function planWaves(deps: readonly (readonly number[])[]): NodePlan {
  const count = deps.length;
  const component = stronglyConnectedComponents(deps);
  const componentSize = new Int32Array(count);
  for (let node = 0; node < count; node += 1) {
    const id = component[node] as number;
    componentSize[id] = (componentSize[id] as number) + 1;
  }

  // Kept edges (no self-loops, no edges inside a cycle, no duplicates) in compressed rows.
  let total = 0;
  for (const own of deps) total += own.length;
  const keptStart = new Int32Array(count + 1);
  const kept = new Int32Array(total);
  const dependentCount = new Int32Array(count + 1);
  const seenBy = new Int32Array(count).fill(-1);
  let used = 0;
  for (let node = 0; node < count; node += 1) {
    keptStart[node] = used;
    for (const dep of deps[node] ?? []) {
      if (dep < 0 || dep >= count || component[dep] === component[node] || seenBy[dep] === node)
        continue;
      seenBy[dep] = node;
      kept[used++] = dep;
      dependentCount[dep + 1] = (dependentCount[dep + 1] as number) + 1;
    }
  }
  keptStart[count] = used;
  // Reverse rows: who waits on each node.
  const dependentStart = dependentCount;
  for (let node = 0; node < count; node += 1)
    dependentStart[node + 1] =
      (dependentStart[node + 1] as number) + (dependentStart[node] as number);
  const dependents = new Int32Array(used);
  const fill = dependentStart.slice(0, count);
  for (let node = 0; node < count; node += 1)
    for (let at = keptStart[node] as number; at < (keptStart[node + 1] as number); at += 1) {
      const dep = kept[at] as number;
      dependents[fill[dep] as number] = node;
      fill[dep] = (fill[dep] as number) + 1;
    }

  // Kahn: a node's wave is one after the latest wave among its dependencies.
  const waiting = new Int32Array(count);
  for (let node = 0; node < count; node += 1)
    waiting[node] = (keptStart[node + 1] as number) - (keptStart[node] as number);
  const wave = new Int32Array(count);
  const ready = new Int32Array(count);
  let tail = 0;
  for (let node = 0; node < count; node += 1) if (waiting[node] === 0) ready[tail++] = node;
  let waveCount = 0;
  for (let head = 0; head < tail; head += 1) {
    const node = ready[head] as number;
    const next = (wave[node] as number) + 1;
    if (next > waveCount) waveCount = next;
    for (
      let at = dependentStart[node] as number;
      at < (dependentStart[node + 1] as number);
      at += 1
    ) {
      const dependent = dependents[at] as number;
      if ((wave[dependent] as number) < next) wave[dependent] = next;
      waiting[dependent] = (waiting[dependent] as number) - 1;
      if (waiting[dependent] === 0) ready[tail++] = dependent;
    }
  }
  const groups: number[][] = Array.from({ length: waveCount }, () => []);
  for (let node = 0; node < count; node += 1) groups[wave[node] as number]?.push(node);

  const cycleOf = new Map<number, number[]>();
  for (let node = 0; node < count; node += 1) {
    const id = component[node] as number;
    if ((componentSize[id] as number) < 2) continue;
    const members = cycleOf.get(id);
    if (members === undefined) cycleOf.set(id, [node]);
    else members.push(node);
  }
  const cycles = [...cycleOf.values()].sort((a, b) => (a[0] as number) - (b[0] as number));
  const dependencies = Array.from({ length: count }, (_, node) =>
    Array.from(kept.subarray(keptStart[node], keptStart[node + 1])),
  );
  return { groups, cycles, dependencies };
}
