/**
 * Where the configuration comes from: `--config`/`STACKD_CONFIG`, else cosmiconfig's search of
 * the working directory, else a demo saved earlier in the data dir, else the bundled demo.
 */
import { MAX_JSON_DEPTH, jsonNestsDeeperThan } from '../../sdk/bounded-json.js';
import { resolveFreePorts } from './free-ports.js';
import { CONFIG_SEARCH_PLACES } from './search-places.cjs';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parseConfigText } from './jsonc-text.js';

/** Where the document was found, and where saves go. */
export interface ConfigSource {
  /** File the document was read from. */
  readonly readPath: string;
  /** File saves go to (the demo is saved into the data dir, never into the package). */
  readonly writePath: string;
  readonly origin: 'file' | 'demo';
}

/** Inputs of {@link resolveConfigSource}. */
export interface ConfigSourceOptions {
  readonly explicitPath: string | undefined;
  readonly searchFrom: string;
  readonly dataDir: string;
  readonly demoPath: string;
}

/** File name of the saved demo configuration inside the data dir. */
export const SAVED_DEMO_NAME = 'stackd.json';

/** The demo's port choices, kept so that a host starting again adopts its demo unchanged. */
export const DEMO_PORTS_NAME = 'demo-ports.json';

/** Find the configuration file, in the order of CONTRACT.md. */
export async function resolveConfigSource(options: ConfigSourceOptions): Promise<ConfigSource> {
  if (options.explicitPath !== undefined && options.explicitPath !== '') {
    const path = resolve(options.explicitPath);
    if (!existsSync(path)) throw new Error(`config file not found: ${path}`);
    return { readPath: path, writePath: path, origin: 'file' };
  }
  // Loaded only when there is something to search for (an explicit --config needs none of it).
  const { cosmiconfig } = await import('cosmiconfig');
  const explorer = cosmiconfig('stackd', {
    searchPlaces: [...CONFIG_SEARCH_PLACES],
    searchStrategy: 'none',
    // Found files are read again (and their syntax errors reported) by readConfigDocument.
    loaders: { noExt: lenientJsonc, '.json': lenientJsonc },
  });
  const found = await explorer.search(options.searchFrom);
  if (found !== null && !found.isEmpty)
    return { readPath: found.filepath, writePath: found.filepath, origin: 'file' };
  const savedDemo = join(resolve(options.dataDir), SAVED_DEMO_NAME);
  if (existsSync(savedDemo)) return { readPath: savedDemo, writePath: savedDemo, origin: 'file' };
  return { readPath: options.demoPath, writePath: savedDemo, origin: 'demo' };
}

/** Twice the request limit: updates of up to 64 levels land a few levels below the top. */
const CONFIG_MAX_DEPTH = 2 * MAX_JSON_DEPTH;

/** Read and parse the document: a JSON object, or an error naming the file, line and column. */
export async function readConfigDocument(
  source: ConfigSource,
  demoDir: string,
  notice: (message: string) => void = () => undefined,
): Promise<Record<string, unknown>> {
  let text = await readFile(source.readPath, 'utf8');
  if (source.origin === 'demo') {
    // The bundled demo names its programs relative to where it is installed, and takes other
    // ports when its defaults are in use.
    const dataDir = dirname(source.writePath);
    // Taken here, not imported: only the bundled demo needs a hash, and a boot loads no more.
    const { createHash } = process.getBuiltinModule('node:crypto');
    const instance = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
    text = text
      .replaceAll('{stackd_demo_dir}', demoDir.replaceAll('\\', '/'))
      .replaceAll('{stackd_demo_instance}', instance);
    const ports = await resolveFreePorts(text, join(dataDir, DEMO_PORTS_NAME), instance);
    text = ports.text;
    for (const { wanted, used } of ports.moved)
      notice(`demo: port ${wanted} is in use; the demo uses ${used} instead`);
  }
  // The document is walked recursively (validation, redaction, merges): bound its depth first.
  if (jsonNestsDeeperThan(text, CONFIG_MAX_DEPTH))
    throw new Error(
      `${source.readPath} nests deeper than ${CONFIG_MAX_DEPTH} levels of objects and arrays`,
    );
  return parseConfigText(text, source.readPath);
}

function lenientJsonc(_path: string, content: string): unknown {
  return parseJsonc(content, [], { allowTrailingComma: true }) as unknown;
}
