/**
 * Run an action over a set of processes respecting dependencies, independent ones in parallel:
 * at boot a process starts once every hard dependency has settled (running or failed: a failed
 * dependency still unblocks its dependents), and at shutdown a process stops once everything
 * depending on it has stopped. Cycles never deadlock: the edge closing a cycle is dropped.
 */

/** Hooks of {@link runOrdered}. */
export interface OrderedRunOptions {
  /** Names that must settle before `name` runs (names outside the set are ignored). */
  readonly before: (name: string) => readonly string[];
  /** The action; resolves true on success. */
  readonly action: (name: string) => Promise<boolean>;
  /** Told when `name` runs although `failed` (which it waited for) did not succeed. */
  readonly onFailedPrerequisite?: (name: string, failed: readonly string[]) => void;
  /** Told about each edge dropped to break a cycle. */
  readonly onCycle?: (path: readonly string[]) => void;
  /** When aborted, actions not begun yet are skipped (they count as failed). */
  readonly signal?: AbortSignal;
}

/** Run `action` for every name, ordered by `before`. Resolves name → success. */
export async function runOrdered(
  names: readonly string[],
  options: OrderedRunOptions,
): Promise<Map<string, boolean>> {
  const members = new Set(names);
  const settled = new Map<string, Promise<boolean>>();
  const visit = (name: string, path: readonly string[]): Promise<boolean> => {
    const known = settled.get(name);
    if (known !== undefined) return known;
    const prerequisites: string[] = [];
    for (const other of new Set(options.before(name))) {
      if (!members.has(other) || other === name) continue;
      if (path.includes(other)) {
        options.onCycle?.([...path.slice(path.indexOf(other)), name, other]);
        continue;
      }
      prerequisites.push(other);
    }
    const run = Promise.all(prerequisites.map((other) => visit(other, [...path, name]))).then(
      async (results) => {
        const failed = prerequisites.filter((_, index) => results[index] !== true);
        if (failed.length > 0) options.onFailedPrerequisite?.(name, failed);
        if (options.signal?.aborted === true) return false;
        try {
          return await options.action(name);
        } catch {
          return false;
        }
      },
    );
    settled.set(name, run);
    return run;
  };
  const results = await Promise.all(names.map((name) => visit(name, [])));
  return new Map(names.map((name, index) => [name, results[index] === true]));
}

/** Invert a dependency relation: name → the names that depend on it. */
export function dependentsOf(
  names: readonly string[],
  dependencies: (name: string) => readonly string[],
): (name: string) => readonly string[] {
  const dependents = new Map<string, string[]>();
  for (const name of names)
    for (const dependency of dependencies(name)) {
      const list = dependents.get(dependency) ?? [];
      list.push(name);
      dependents.set(dependency, list);
    }
  return (name) => dependents.get(name) ?? [];
}
