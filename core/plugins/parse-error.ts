/**
 * Where a plugin's syntax error is. `import()` of a file that does not parse rejects with a
 * SyntaxError that carries neither the file nor the position, so the file is checked again with
 * `node --check`, which prints `FILE:LINE`, the source line and a caret under the culprit.
 */
import { readFileSync } from 'node:fs';

/** `file:line:column: message`, or undefined when the file parses (the error is elsewhere). */
export function locateSyntaxError(file: string): string | undefined {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  // The source goes in on stdin so the module type is ours to say (a `.js` file outside any
  // package would otherwise be taken for CommonJS).
  const inputType = file.endsWith('.cjs') ? 'commonjs' : 'module';
  // Only when a plugin fails to parse: `node:child_process` is not loaded for it at every boot.
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const result = spawnSync(process.execPath, [`--input-type=${inputType}`, '--check'], {
    input: source,
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (result.status === 0) return undefined;
  const lines = result.stderr.split('\n');
  const header = /^\[stdin\]:(\d+)$/.exec(lines[0] ?? '');
  const message = lines.find((line) => /^\w*Error: /.test(line));
  if (header === null || message === undefined) return undefined;
  const caret = lines[2]?.indexOf('^') ?? -1;
  const column = caret >= 0 ? `:${caret + 1}` : '';
  return `${file}:${header[1]}${column}: ${message}`;
}
