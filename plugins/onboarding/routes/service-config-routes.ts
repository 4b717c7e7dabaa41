/** POST /config/service-config: read or replace the config file a service's block declares. */
import {
  ErrorBody,
  defineRoute,
  listProcessEntries,
  requireProcessEntry,
  Type,
  type Logger,
  type StackConfig,
} from '../../../sdk/index.js';
import type { ServiceCatalogRegistry } from '../catalog/service-catalog.js';
import {
  configTarget,
  readServiceConfig,
  writeServiceConfig,
} from '../service-config/service-config-file.js';
import { structureToText } from '../service-config/format-writer.js';
import { ServiceConfigBody, ServiceConfigRead, ServiceConfigWritten } from '../schemas.js';

const DESCRIPTION = [
  "Only the block's `config_file` (relative → data dir) is opened. Format from the catalog's",
  'config_format, else the extension: .json; .yaml/.yml; .xml; .conf/.config/.ini/.cfg (INI-like',
  'lines); .py (light check only: strings closed, brackets balanced, no NUL — never executed).',
  'Without updates: the raw text and the parsed structure. With updates: the whole new content,',
  'checked first (invalid → 422 field updates, detail naming the line, file untouched), the old',
  'file kept as <file>.bak, the new one written atomically. Unknown service → 404; no',
  'config_file → 400; file missing on read → 404.',
].join('\n');

/** What the route works with. */
export interface ServiceConfigRouteDeps {
  readonly catalog: ServiceCatalogRegistry;
  readonly stack: StackConfig;
  readonly dataDir: string;
  readonly logger: Logger;
}

/** POST /config/service-config */
export function serviceConfigRoute(deps: ServiceConfigRouteDeps) {
  return defineRoute({
    method: 'POST',
    path: '/config/service-config',
    summary: "Read or replace a service's own config file",
    description: DESCRIPTION,
    tags: ['config'],
    schema: {
      body: ServiceConfigBody,
      response: { 200: Type.Union([ServiceConfigRead, ServiceConfigWritten]), 404: ErrorBody },
    },
    handler: async ({ body }) => {
      const entries = listProcessEntries(deps.stack.read());
      const entry = requireProcessEntry(entries, body.service_name, 'service_name');
      const target = configTarget(
        entry.block,
        deps.dataDir,
        deps.catalog.get(entry.config_key)?.config_format,
      );
      const about = {
        service: entry.process_name,
        config_key: entry.config_key,
        service_path: target.path,
        config_format: target.format,
      };
      if (body.updates === undefined || body.updates === '')
        return { ...about, ...(await readServiceConfig(target)) };
      const text =
        typeof body.updates === 'string'
          ? body.updates
          : await structureToText(target.format, body.updates);
      const backup = await writeServiceConfig(target, text);
      deps.logger.info(`config file of ${entry.process_name} replaced (${target.path})`);
      return { status: 'Config updated successfully' as const, ...about, backup_path: backup };
    },
  });
}
