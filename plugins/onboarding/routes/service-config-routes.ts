/** POST /config/service-config: read or replace the config file a service's block declares. */
import {
  ConfigFieldChangeSchema as FieldChange,
  ErrorBody,
  defineRoute,
  listProcessEntries,
  requireProcessEntry,
  StringEnum,
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

const Format = StringEnum(['json', 'yaml', 'conf', 'python', 'xml'] as const);

const ServiceConfigBody = Type.Object(
  {
    service_name: Type.String({ minLength: 1, description: 'process_name (or config key).' }),
    updates: Type.Optional(
      Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())], {
        description:
          'The whole new file content as text, or the edited structure (as the read answer ' +
          "gives it in `config`; written back in the file's format — not for Python); omit " +
          '(or empty) to read.',
      }),
    ),
    config_format: Type.Optional(
      Type.String({ description: 'Ignored: the format comes from the catalog or the extension.' }),
    ),
    dry_run: Type.Optional(
      Type.Boolean({
        description:
          'With updates: check them and answer what writing them would change, writing nothing ' +
          '(the same as POST /config/service-config/preview).',
      }),
    ),
  },
  { additionalProperties: false },
);

const ServiceConfigRead = Type.Object({
  service: Type.String(),
  config_key: Type.String(),
  service_path: Type.String({ description: 'The file (from the block, never from the request).' }),
  config_format: Format,
  raw: Type.String(),
  config: Type.Optional(
    Type.Unknown({
      description: 'The parsed structure (json, yaml, xml, conf sections); absent for python.',
    }),
  ),
});

const ServiceConfigWritten = Type.Object({
  status: Type.Literal('Config updated successfully'),
  service: Type.String(),
  config_key: Type.String(),
  service_path: Type.String(),
  config_format: Format,
  backup_path: Type.Union([Type.String(), Type.Null()], {
    description: 'The previous file, kept as <file>.bak; null when there was none.',
  }),
});

const ServiceConfigDryRun = Type.Object(
  {
    status: Type.Literal('dry_run'),
    service: Type.String(),
    config_key: Type.String(),
    service_path: Type.String(),
    config_format: Format,
    exists: Type.Boolean({ description: 'Whether the file exists now.' }),
    changed: Type.Boolean({ description: 'Whether the text differs from the file.' }),
    diff: Type.Array(FieldChange, {
      description:
        'Field-level changes of the parsed structures (secrets as changed, never their ' +
        'values); empty for python files, whose structure is not parsed.',
    }),
    lines: Type.Object(
      {
        old_lines: Type.Integer(),
        new_lines: Type.Integer(),
        first_changed: Type.Union([Type.Integer(), Type.Null()]),
        last_changed: Type.Union([Type.Integer(), Type.Null()]),
      },
      {
        description:
          'The region that differs (leading and trailing equal lines left out), 1-based in the ' +
          'new text.',
      },
    ),
    effect: Type.Object({
      process_name: Type.String(),
      action: Type.Literal('nothing'),
      reason: Type.String(),
    }),
  },
  {
    title: 'ServiceConfigDryRun',
    examples: [
      {
        status: 'dry_run',
        service: 'Sonarr',
        config_key: 'sonarr',
        service_path: '/config/sonarr/config.xml',
        config_format: 'xml',
        exists: true,
        changed: true,
        diff: [
          { path: 'Config.Port', old: 8989, new: 8990 },
          { path: 'Config.ApiKey', secret: 'changed' },
        ],
        lines: { old_lines: 12, new_lines: 12, first_changed: 3, last_changed: 5 },
        effect: {
          process_name: 'Sonarr',
          action: 'nothing',
          reason:
            'writing the file restarts nothing: Sonarr reads it when it starts; restart it to apply',
        },
      },
    ],
  },
);

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

const PreviewBody = Type.Object(
  {
    service_name: ServiceConfigBody.properties.service_name,
    updates: Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())], {
      description: 'The new file content (text), or the edited structure, as for the write.',
    }),
  },
  { additionalProperties: false },
);

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
    schema: { body: PreviewBody, response: { 200: ServiceConfigDryRun, 404: ErrorBody } },
    handler: ({ body }) => dryRun(deps, { ...body, dry_run: true }),
  });
}
