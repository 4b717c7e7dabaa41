/** The response bodies the comparison servers serve: a JSON file `{ "<path>": <body> }`. */
import { readFileSync } from 'node:fs';

/** Read the bodies file named by argv[2]. */
export function readBodies(): Map<string, unknown> {
  const file = process.argv[2];
  if (file === undefined) throw new Error('usage: node server.js BODIES.json');
  return new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>));
}
