/**
 * The layering figures of the import graph (pure): imports from the sdk up into core, host or
 * plugins; imports from one plugin into another; pairs of core folders that import each other;
 * import cycles between files; the largest file and the longest function.
 */
import type { SourceFile } from './import-graph.js';

/** The largest file and the longest function of a set of files. */
export interface SizeFigures {
  readonly largestFile: { readonly path: string; readonly lines: number };
  readonly longestFunction: {
    readonly path: string;
    readonly name: string;
    readonly lines: number;
  };
}

export interface LayeringReport {
  readonly sdkUpward: string[];
  readonly crossPlugin: string[];
  readonly coreTwoWay: string[];
  readonly cycles: string[][];
  readonly largestFile: { readonly path: string; readonly lines: number };
  readonly longestFunction: {
    readonly path: string;
    readonly name: string;
    readonly lines: number;
  };
  /** The same two figures per top-level folder (core, host, plugins, …). */
  readonly byArea: ReadonlyArray<{ readonly area: string } & SizeFigures>;
}

const segments = (path: string): string[] => path.split('/');

function coreFolder(path: string): string | undefined {
  const [area, folder, file] = segments(path);
  return area === 'core' && file !== undefined ? folder : undefined;
}

/** Strongly connected components of value imports with more than one file (Tarjan). */
export function importCycles(files: readonly SourceFile[]): string[][] {
  const edges = new Map(files.map((file) => [file.path, file.valueImports]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file.path)) connect(file.path);
  return cycles;
}

function arrows(files: readonly SourceFile[]): Array<[string, string]> {
  return files.flatMap((file) =>
    file.imports.map((target): [string, string] => [file.path, target]),
  );
}

function coreTwoWay(files: readonly SourceFile[]): string[] {
  const pairs = new Set<string>();
  for (const [from, to] of arrows(files)) {
    const a = coreFolder(from);
    const b = coreFolder(to);
    if (a !== undefined && b !== undefined && a !== b) pairs.add(`${a}→${b}`);
  }
  return [...pairs].filter((pair) => {
    const [a, b] = pair.split('→');
    return a! < b! && pairs.has(`${b}→${a}`);
  });
}

function sizeFigures(files: readonly SourceFile[]): SizeFigures {
  const largest = files.reduce((a, b) => (b.lines > a.lines ? b : a));
  const longest = files.reduce((a, b) =>
    b.longestFunction.lines > a.longestFunction.lines ? b : a,
  );
  return {
    largestFile: { path: largest.path, lines: largest.lines },
    longestFunction: { path: longest.path, ...longest.longestFunction },
  };
}

function byArea(files: readonly SourceFile[]): LayeringReport['byArea'] {
  const areas = [...new Set(files.map((file) => segments(file.path)[0]!))].sort();
  return areas.map((area) => ({
    area,
    ...sizeFigures(files.filter((file) => segments(file.path)[0] === area)),
  }));
}

/** The figures of one graph. */
export function layeringReport(files: readonly SourceFile[]): LayeringReport {
  const all = arrows(files);
  const sdkUpward = all
    .filter(([from, to]) => segments(from)[0] === 'sdk' && segments(to)[0] !== 'sdk')
    .map(([from, to]) => `${from} → ${to}`);
  const crossPlugin = all
    .filter(([from, to]) => {
      const [fromArea, fromPlugin] = segments(from);
      const [toArea, toPlugin] = segments(to);
      return fromArea === 'plugins' && toArea === 'plugins' && fromPlugin !== toPlugin;
    })
    .map(([from, to]) => `${from} → ${to}`);
  return {
    sdkUpward,
    crossPlugin,
    coreTwoWay: coreTwoWay(files).map((pair) => pair.replace('→', ' ↔ ')),
    cycles: importCycles(files),
    ...sizeFigures(files),
    byArea: byArea(files),
  };
}
