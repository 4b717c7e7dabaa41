/**
 * Setup hooks: before a launch, every hook registered for the block's config key
 * gets a copy of the block; what they change is validated and saved, then the launch reads it.
 */
import {
  HttpError,
  isHttpError,
  type JsonRecord,
  type Logger,
  type StackConfig,
} from '../../../sdk/index.js';
import type { ServiceCatalogRegistry } from '../catalog/service-catalog.js';
import type { ProcessEntry } from '../../../sdk/index.js';
import { PROCESS_SETUP_FAILED } from '../errors.js';

/** What the hooks run with. */
export interface SetupHookDeps {
  readonly catalog: ServiceCatalogRegistry;
  readonly stack: StackConfig;
  readonly dataDir: string;
  readonly logger: Logger;
  /** The current entries. */
  readonly entries: () => ProcessEntry[];
}

/** The entry whose block sits at a key path, or undefined. */
export function entryAtPath(
  entries: readonly ProcessEntry[],
  path: readonly string[],
): ProcessEntry | undefined {
  return entries.find(
    (entry) =>
      entry.path.length === path.length && entry.path.every((key, index) => key === path[index]),
  );
}

function replaceAt(document: JsonRecord, path: readonly string[], block: JsonRecord): void {
  let current: JsonRecord = document;
  for (const key of path.slice(0, -1)) current = current[key] as JsonRecord;
  current[path[path.length - 1] as string] = block;
}

/** Run the entry's hooks; returns the entry as saved afterwards. A failing hook is a 500. */
export async function runSetupHooks(
  entry: ProcessEntry,
  deps: SetupHookDeps,
): Promise<ProcessEntry> {
  if (entry.self) return entry;
  const hooks = deps.catalog.setupHooks(entry.config_key);
  if (hooks.length === 0) return entry;
  const block = structuredClone(entry.block);
  const logger = deps.logger.child(`setup:${entry.config_key}`);
  for (const hook of hooks) {
    try {
      await hook({
        config_key: entry.config_key,
        instance_name: entry.instance_name,
        process_name: entry.process_name,
        block,
        dataDir: deps.dataDir,
        logger,
      });
    } catch (error) {
      if (isHttpError(error)) throw error;
      throw new HttpError(
        500,
        PROCESS_SETUP_FAILED,
        `Setup of ${entry.process_name} failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
  if (JSON.stringify(block) === JSON.stringify(entry.block)) return entry;
  await deps.stack.update((draft) => replaceAt(draft, entry.path, block), {
    persist: entry.path,
    reason: `setup hooks of ${entry.process_name}`,
  });
  return entryAtPath(deps.entries(), entry.path) ?? entry;
}
