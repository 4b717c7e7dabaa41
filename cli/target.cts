/**
 * Where the client connects: `--url` / `STACKD_URL`, else the `host`/`port` of the config file
 * the host would load from this directory (`--config` / `STACKD_CONFIG`, the same search places,
 * the demo saved in the data dir), else http://127.0.0.1:8000.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CONFIG_SEARCH_PLACES } from '../core/config/search-places.cjs';
import { CliError, EXIT } from './errors.cjs';

export const DEFAULT_URL = 'http://127.0.0.1:8000';

/** What decides the target. */
export interface TargetInputs {
  readonly url: string | undefined;
  readonly config: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** The base URL without a trailing slash; throws a usage error for a malformed --url. */
export function resolveBaseUrl(inputs: TargetInputs): string {
  const given = nonEmpty(inputs.url) ?? nonEmpty(inputs.env.STACKD_URL);
  if (given !== undefined) return normaliseUrl(given);
  const file = configFile(inputs);
  const fromFile = file === undefined ? undefined : urlFromConfig(file);
  return fromFile ?? DEFAULT_URL;
}

function normaliseUrl(text: string): string {
  const withScheme = /^[a-z]+:\/\//i.test(text) ? text : `http://${text}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    throw new CliError(`invalid --url '${text}': give it as http://HOST:PORT`, EXIT.usage);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new CliError(`invalid --url '${text}': use http:// or https://`, EXIT.usage);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

function configFile(inputs: TargetInputs): string | undefined {
  const explicit = nonEmpty(inputs.config) ?? nonEmpty(inputs.env.STACKD_CONFIG);
  if (explicit !== undefined) return resolve(inputs.cwd, explicit);
  for (const place of CONFIG_SEARCH_PLACES) {
    const path = join(inputs.cwd, place);
    if (existsSync(path)) return path;
  }
  const dataDir = nonEmpty(inputs.env.STACKD_DATA_DIR) ?? './data';
  const savedDemo = resolve(inputs.cwd, dataDir, 'stackd.json');
  return existsSync(savedDemo) ? savedDemo : undefined;
}

/** http://host:port from `stackd.api_service` of the file; undefined when absent or unreadable. */
function urlFromConfig(path: string): string | undefined {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  const api = pick(pick(document, 'stackd'), 'api_service');
  const host = pick(api, 'host');
  const port = pick(api, 'port');
  if (typeof port !== 'number' || !Number.isInteger(port) || port <= 0) return undefined;
  const name = typeof host === 'string' && host !== '' ? host : '127.0.0.1';
  // A wildcard listen address is reached on loopback.
  const reachable = name === '0.0.0.0' || name === '::' ? '127.0.0.1' : name;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

function pick(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
