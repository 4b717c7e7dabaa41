/** Reads the data files shipped next to the compiled plugin (`data/*.json`). */
import { readFileSync } from 'node:fs';
import type { KnowledgeFiles } from './knowledge/knowledge.js';

const FILE_NAMES = [
  'signals',
  'core-services',
  'non-core-dependencies',
  'conditional-startup',
  'mount-providers',
  'integrations',
  'display-names',
] as const satisfies readonly (keyof KnowledgeFiles)[];

/** The parsed shipped files. Synchronous: a few small files read once per process. */
export function readShippedKnowledge(): KnowledgeFiles {
  const files: Partial<Record<keyof KnowledgeFiles, unknown>> = {};
  for (const name of FILE_NAMES) {
    const url = new URL(`./data/${name}.json`, import.meta.url);
    try {
      files[name] = JSON.parse(readFileSync(url, 'utf8')) as unknown;
    } catch (error) {
      throw new Error(`graph data file ${url.pathname} could not be read`, { cause: error });
    }
  }
  return files as KnowledgeFiles;
}
