/** Reading catalog files: the one shipped next to this module and the user's `catalog_file`. */
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkValue } from '../../../sdk/index.js';
import { CatalogFileSchema, type CatalogFile } from './catalog-schema.js';
import type { ServiceCatalogRegistry } from './service-catalog.js';

/** The catalog shipped with the plugin. */
export const SHIPPED_CATALOG = fileURLToPath(new URL('./catalog.json', import.meta.url));

/** Read and validate a catalog file; the error names the file and the field. */
export async function readCatalogFile(path: string): Promise<CatalogFile> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(
      `catalog file ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const [failure] = checkValue(CatalogFileSchema, parsed, 1);
  if (failure !== undefined)
    throw new Error(`catalog file ${path} at '${failure.field}': ${failure.message}`);
  return parsed as CatalogFile;
}

/** `catalog_file` of the config slice as an absolute path (relative → data dir), or null. */
export function catalogFilePath(configured: string, dataDir: string): string | null {
  if (configured.trim() === '') return null;
  return isAbsolute(configured) ? configured : resolve(dataDir, configured);
}

/** Load the shipped catalog and the user's `catalog_file` (when set) into the registry. */
export async function loadCatalogs(
  catalog: ServiceCatalogRegistry,
  configured: string,
  dataDir: string,
): Promise<void> {
  catalog.addTo('shipped', (await readCatalogFile(SHIPPED_CATALOG)).services, SHIPPED_CATALOG);
  const file = catalogFilePath(configured, dataDir);
  if (file !== null) catalog.addTo('file', (await readCatalogFile(file)).services, file);
}
