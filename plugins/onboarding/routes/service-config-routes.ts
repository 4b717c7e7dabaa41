/** POST /config/service-config: read or replace the config file a service's block declares. */
import {
  ErrorBody,
  defineRoute,
  listProcessEntries,
  requireProcessEntry,
  Type,
  type Logger,
  type StackConfig,
  type Static,
} from '../../../sdk/index.js';
import type { ServiceCatalogRegistry } from '../catalog/service-catalog.js';
import {
  configTarget,
  readServiceConfig,
  writeServiceConfig,
  type ServiceConfigTarget,
} from '../service-config/service-config-file.js';
import { previewServiceConfig } from '../service-config/service-config-preview.js';
import { structureToText } from '../service-config/format-writer.js';
import {
  ServiceConfigBody,
  ServiceConfigDryRun,
  ServiceConfigPreviewBody,
  ServiceConfigRead,
  ServiceConfigWritten,
} from '../schemas.js';

const DESCRIPTION = [
  "Only the block's `config_file` (relative → data dir) is opened. Format from the catalog's",
  'config_format, else the extension: .json; .yaml/.yml; .xml; .conf/.config/.ini/.cfg (INI-like',
  'lines); .py (light check only: strings closed, brackets balanced, no NUL — never executed).',
  'Without updates: the raw text and the parsed structure. With updates: the whole new content,',
  'checked first (invalid → 422 field updates, detail naming the line, file untouched), the old',
  'file kept as <file>.bak, the new one written atomically. Unknown service → 404; no',
  'config_file → 400; file missing on read → 404. With dry_run (or on the /preview route): the',
  'same checks and 422s, then the field diff (secrets as changed) and changed line region, and',
  'nothing written.',
].join('\n');

/** What the route works with. */
export interface ServiceConfigRouteDeps {
  readonly catalog: ServiceCatalogRegistry;
  readonly stack: StackConfig;
  readonly dataDir: string;
  readonly logger: Logger;
}

function targetOf(deps: ServiceConfigRouteDeps, serviceName: string) {
  const entries = listProcessEntries(deps.stack.read());
  const entry = requireProcessEntry(entries, serviceName, 'service_name');
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
  return { entry, target, about };
}

type ServiceConfigRequest = Static<typeof ServiceConfigBody>;

async function textOf(target: ServiceConfigTarget, updates: ServiceConfigRequest['updates']) {
  return typeof updates === 'string' ? updates : structureToText(target.format, updates ?? {});
}

async function dryRun(deps: ServiceConfigRouteDeps, body: ServiceConfigRequest) {
  const { target, about } = targetOf(deps, body.service_name);
  const preview = await previewServiceConfig(target, await textOf(target, body.updates));
  return {
    status: 'dry_run' as const,
    ...about,
    ...preview,
    effect: {
      process_name: about.service,
      action: 'nothing' as const,
      reason:
        `writing the file restarts nothing: ${about.service} reads it when it starts; ` +
        'restart it to apply',
    },
  };
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
      response: {
        200: Type.Union([ServiceConfigRead, ServiceConfigWritten, ServiceConfigDryRun]),
        404: ErrorBody,
      },
    },
    handler: async ({ body }) => {
      const reading = body.updates === undefined || body.updates === '';
      if (!reading && body.dry_run === true) return dryRun(deps, body);
      const { entry, target, about } = targetOf(deps, body.service_name);
      if (reading) return { ...about, ...(await readServiceConfig(target)) };
      const backup = await writeServiceConfig(target, await textOf(target, body.updates));
      deps.logger.info(`config file of ${entry.process_name} replaced (${target.path})`);
      return { status: 'Config updated successfully' as const, ...about, backup_path: backup };
    },
  });
}

/** POST /config/service-config/preview: what a write would change, writing nothing. */
export function serviceConfigPreviewRoute(deps: ServiceConfigRouteDeps) {
  return defineRoute({
    method: 'POST',
    path: '/config/service-config/preview',
    summary: "What replacing a service's config file would change, without writing it",
    description:
      'The same checks and 422s as POST /config/service-config with updates; answers the ' +
      'field-level diff of the parsed structures (secrets as changed, never their values), the ' +
      'region of lines that differs, and that the write alone restarts nothing.',
    tags: ['config'],
    schema: {
      body: ServiceConfigPreviewBody,
      response: { 200: ServiceConfigDryRun, 404: ErrorBody },
    },
    handler: ({ body }) => dryRun(deps, { ...body, dry_run: true }),
  });
}
