/**
 * The service catalog in memory: three layers, later ones winning by key (the shipped data, what
 * plugins add through the sdk, the user's `catalog_file`), name resolution and setup hooks.
 */
import { checkValue } from '../../../sdk/index.js';
import type { CatalogService, ServiceCatalog, SetupHook } from '../../../sdk/index.js';
import { normalizeProcessName } from '../../../sdk/index.js';
import { CatalogServiceSchema } from './catalog-schema.js';

/** Where entries come from; later layers win. */
export type CatalogLayer = 'shipped' | 'plugins' | 'file';
const LAYERS: readonly CatalogLayer[] = ['shipped', 'plugins', 'file'];

/** Throw when an entry does not match the catalog schema, naming it and the field. */
export function assertCatalogService(
  entry: unknown,
  where: string,
): asserts entry is CatalogService {
  const [failure] = checkValue(CatalogServiceSchema, entry, 1);
  if (failure === undefined) return;
  const key =
    typeof entry === 'object' && entry !== null && 'key' in entry ? String(entry.key) : '?';
  throw new Error(
    `invalid catalog entry '${key}' in ${where} at '${failure.field}': ${failure.message}`,
  );
}

/** The catalog: entries by layer and setup hooks by config key. */
export class ServiceCatalogRegistry implements ServiceCatalog {
  private readonly layers = new Map<CatalogLayer, Map<string, CatalogService>>(
    LAYERS.map((layer) => [layer, new Map()]),
  );
  private readonly hooks = new Map<string, SetupHook[]>();

  addServices(entries: readonly CatalogService[]): void {
    this.addTo('plugins', entries, 'a plugin');
  }

  /** Add entries to one layer (validated; the whole batch or nothing). */
  addTo(layer: CatalogLayer, entries: readonly unknown[], where: string): void {
    entries.forEach((entry, index) => assertCatalogService(entry, `${where} (#${index})`));
    const target = this.layers.get(layer) as Map<string, CatalogService>;
    for (const entry of entries as readonly CatalogService[])
      target.set(entry.key, structuredClone(entry));
  }

  addSetupHook(serviceKey: string, hook: SetupHook): () => void {
    const list = this.hooks.get(serviceKey) ?? [];
    list.push(hook);
    this.hooks.set(serviceKey, list);
    return () => {
      const index = list.indexOf(hook);
      if (index >= 0) list.splice(index, 1);
    };
  }

  /** The hooks of a config key, in registration order. */
  setupHooks(serviceKey: string): readonly SetupHook[] {
    return [...(this.hooks.get(serviceKey) ?? [])];
  }

  services(): CatalogService[] {
    const merged = new Map<string, CatalogService>();
    for (const layer of LAYERS)
      for (const [key, entry] of this.layers.get(layer) as Map<string, CatalogService>)
        merged.set(key, entry);
    return [...merged.values()];
  }

  /** An entry by config key, exactly. */
  get(key: string): CatalogService | undefined {
    for (const layer of [...LAYERS].reverse()) {
      const found = this.layers.get(layer)?.get(key);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** An entry by key, display name or alias (case, spaces, `-` and `_` ignored). */
  resolve(name: string): CatalogService | undefined {
    const exact = this.get(name);
    if (exact !== undefined) return exact;
    const wanted = normalizeProcessName(name);
    if (wanted === '') return undefined;
    return this.services().find((entry) =>
      [entry.key, entry.name, ...(entry.aliases ?? [])].some(
        (candidate) => normalizeProcessName(candidate) === wanted,
      ),
    );
  }
}
