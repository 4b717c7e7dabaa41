/**
 * The import graph of the production sources, read with the TypeScript parser: every relative
 * import resolved from its `.js` specifier to the `.ts` source. Layering counts type-only
 * imports too (they still tie designs together); cycles count value imports only, as the lint
 * rule does, since type imports vanish at run time.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** The folders whose files are production code. */
export const PRODUCTION_AREAS = ['core', 'host', 'sdk', 'testing', 'plugins', 'tools'] as const;

/** One source file: its path from the root, its line count and its imports (paths from the root). */
export interface SourceFile {
  readonly path: string;
  readonly lines: number;
  readonly imports: readonly string[];
  readonly valueImports: readonly string[];
  readonly longestFunction: { readonly name: string; readonly lines: number };
}

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) return tsFiles(full);
    return entry.endsWith('.ts') && !entry.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveImport(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(dirname(from), specifier);
  for (const candidate of [target.replace(/\.js$/, '.ts'), target, `${target}.ts`]) {
    if (existsSync(candidate) && statSync(candidate).isFile())
      return relative(root, candidate).split(sep).join('/');
  }
  return undefined;
}

function functionName(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name !== undefined && ts.isIdentifier(named.name)) return named.name.text;
  if (ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name))
    return node.parent.name.text;
  return '(anonymous)';
}

function longestFunction(source: ts.SourceFile): { name: string; lines: number } {
  let best = { name: '', lines: 0 };
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > best.lines) best = { name: functionName(node), lines: end - start + 1 };
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return best;
}

function readSource(root: string, file: string): SourceFile {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const imports: string[] = [];
  const valueImports: string[] = [];
  for (const statement of source.statements) {
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    const target = specifier === undefined ? undefined : resolveImport(root, file, specifier);
    if (target === undefined) continue;
    imports.push(target);
    const typeOnly = ts.isImportDeclaration(statement)
      ? statement.importClause?.isTypeOnly === true
      : ts.isExportDeclaration(statement) && statement.isTypeOnly;
    if (!typeOnly) valueImports.push(target);
  }
  const path = relative(root, file).split(sep).join('/');
  return {
    path,
    lines: text.split('\n').length,
    imports,
    valueImports,
    longestFunction: longestFunction(source),
  };
}

/** Every production source file under `root`. */
export function readGraph(root: string): SourceFile[] {
  return PRODUCTION_AREAS.flatMap((area) => tsFiles(join(root, area))).map((file) =>
    readSource(root, file),
  );
}
