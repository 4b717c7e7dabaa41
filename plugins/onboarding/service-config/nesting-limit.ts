/**
 * Nesting limits for a service's config file content before it is parsed: every reader after
 * the parser (redaction, the JSON answer) walks the structure recursively, so a file nested
 * thousands of levels deep is refused as a format problem instead of overflowing the stack.
 * The scans are linear and approximate on the safe side (brackets inside YAML single-quoted
 * strings count), which only matters for files no service writes.
 */
import { MAX_JSON_DEPTH, jsonNestsDeeperThan } from '../../../sdk/index.js';
import type { ServiceConfigFormat } from '../../../sdk/index.js';

function yamlIndentLevels(text: string): number {
  const open: number[] = [];
  let deepest = 0;
  for (const line of text.split('\n')) {
    const content = line.trimStart();
    if (content === '' || content.startsWith('#')) continue;
    const indent = line.length - content.length;
    while (open.length > 0 && (open.at(-1) ?? 0) >= indent) open.pop();
    open.push(indent);
    deepest = Math.max(deepest, open.length);
  }
  return deepest;
}

function xmlDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const match of text.matchAll(/<(\/?)[A-Za-z_][^>]*?(\/?)>/g)) {
    if (match[1] === '/') depth -= 1;
    else if (match[2] !== '/') depth += 1;
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

/** A message when `text` nests deeper than the limit for its format, else null. */
export function nestingProblem(format: ServiceConfigFormat, text: string): string | null {
  const limit = MAX_JSON_DEPTH;
  const tooDeep =
    format === 'json'
      ? jsonNestsDeeperThan(text, limit)
      : format === 'yaml'
        ? jsonNestsDeeperThan(text, limit) || yamlIndentLevels(text) > limit
        : format === 'xml'
          ? xmlDepth(text) > limit
          : false;
  return tooDeep ? `nests deeper than ${limit} levels` : null;
}
