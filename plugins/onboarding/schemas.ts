/** Request and response schemas of the onboarding routes. */
import {
  ConfigFieldChangeSchema,
  JsonObject,
  StringEnum,
  Type,
  type Static,
} from '../../sdk/index.js';

const ServiceOptions = Type.Record(Type.String(), JsonObject, {
  description:
    'Keyed by service config key (or, for a core service with instances, its instance name); ' +
    "each value's fields override that service's block (log_level, port, enabled, …).",
});

/** One core service of POST /process/start-core-service. */
export const CoreServiceRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'A config key or a display name ("Riven").' }),
    instance_name: Type.Optional(
      Type.String({ description: 'For core services with instances; default "Default".' }),
    ),
    debrid_service: Type.Optional(Type.String({ description: 'Debrid provider ("RealDebrid").' })),
    debrid_key: Type.Optional(
      Type.String({
        description:
          'Write-only: saved into the dependencies that need it (catalog debrid_key_field), ' +
          'never returned.',
      }),
    ),
    service_options: Type.Optional(ServiceOptions),
  },
  { additionalProperties: false },
);
/** Type of {@link CoreServiceRequest}. */
export type CoreServiceRequest = Static<typeof CoreServiceRequest>;

export const StartCoreServiceBody = Type.Object(
  {
    core_services: Type.Optional(
      Type.Union([CoreServiceRequest, Type.Array(CoreServiceRequest)], {
        description: 'One object or an array; may be omitted for optional-only onboarding.',
      }),
    ),
    optional_services: Type.Optional(
      Type.Array(Type.String(), { description: 'Optional services to start (key or name).' }),
    ),
    optional_service_options: Type.Optional(
      Type.Record(Type.String(), JsonObject, {
        description: 'Overrides per optional service key, applied after the core service_options.',
      }),
    ),
  },
  { additionalProperties: false },
);
/** Type of {@link StartCoreServiceBody}. */
export type StartCoreServiceBody = Static<typeof StartCoreServiceBody>;

export const StartResultStatus = StringEnum(
  ['started', 'starting', 'already_running', 'disabled'] as const,
  {
    description:
      'started: running now; starting: still starting when the response timeout passed; ' +
      'already_running: left as it was; disabled: service_options set enabled false.',
  },
);

export const StartResult = Type.Object({
  service: Type.String({ description: 'The process_name.' }),
  config_key: Type.String(),
  role: StringEnum(['core', 'dependency', 'optional'] as const),
  status: StartResultStatus,
});
/** Type of {@link StartResult}. */
export type StartResult = Static<typeof StartResult>;

export const StartError = Type.Object({
  service: Type.String({ description: 'The process_name, or the name as requested.' }),
  detail: Type.String(),
  code: Type.String({ description: 'AREA_REASON, as an error response would carry.' }),
  field: Type.Optional(Type.String()),
});
/** Type of {@link StartError}. */
export type StartError = Static<typeof StartError>;

export const StartCoreServiceResponse = Type.Object({
  results: Type.Array(StartResult),
  errors: Type.Array(StartError),
});

const OptionValues = Type.Record(Type.String(), JsonObject, {
  description: 'Per service key: the default value of each exposed option.',
});
const OptionDescriptions = Type.Record(Type.String(), Type.Record(Type.String(), Type.String()), {
  description: 'Per service key: the help text of each exposed option.',
});

export const CoreServicesResponse = Type.Object({
  core_services: Type.Array(
    Type.Object({
      name: Type.String(),
      key: Type.String(),
      description: Type.String(),
      dependencies: Type.Array(Type.String(), { description: 'Config keys, in start order.' }),
      debrid_providers: Type.Array(Type.String()),
      service_options: OptionValues,
      service_option_descriptions: OptionDescriptions,
      supports_instances: Type.Boolean(),
    }),
  ),
});

export const OptionalServicesQuery = Type.Object({
  core_service: Type.Optional(Type.String({ description: 'Omit what this core service needs.' })),
  optional_services: Type.Optional(
    Type.Union([Type.String(), Type.Array(Type.String())], {
      description:
        'Already chosen optional services (repeat or comma-separate): omit what they need.',
    }),
  ),
});

export const OptionalServicesResponse = Type.Object({
  optional_services: Type.Array(
    Type.Object({
      name: Type.String(),
      key: Type.String(),
      description: Type.String(),
      dependencies: Type.Array(Type.String()),
      start: StringEnum(['before_core', 'after_core'] as const),
      service_options: JsonObject,
      service_option_descriptions: Type.Record(Type.String(), Type.String()),
    }),
  ),
});

export const OnboardingStatus = Type.Object({
  onboarding_completed: Type.Boolean(),
  needs_onboarding: Type.Boolean(),
});

export const OnboardingChange = Type.Object({
  status: Type.String(),
  onboarding_completed: Type.Boolean(),
  needs_onboarding: Type.Boolean(),
});

/** The formats a service config file is read and written in. */
export const ServiceConfigFormat = StringEnum(['json', 'yaml', 'conf', 'python', 'xml'] as const);

/** Body of POST /config/service-config: read the file, or replace it with `updates`. */
export const ServiceConfigBody = Type.Object(
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

/** The answer of a read: the raw text and, but for Python, the parsed structure. */
export const ServiceConfigRead = Type.Object({
  service: Type.String(),
  config_key: Type.String(),
  service_path: Type.String({ description: 'The file (from the block, never from the request).' }),
  config_format: ServiceConfigFormat,
  raw: Type.String(),
  config: Type.Optional(
    Type.Unknown({
      description: 'The parsed structure (json, yaml, xml, conf sections); absent for python.',
    }),
  ),
});

/** The answer of a write, naming the backup of the previous file. */
export const ServiceConfigWritten = Type.Object({
  status: Type.Literal('Config updated successfully'),
  service: Type.String(),
  config_key: Type.String(),
  service_path: Type.String(),
  config_format: ServiceConfigFormat,
  backup_path: Type.Union([Type.String(), Type.Null()], {
    description: 'The previous file, kept as <file>.bak; null when there was none.',
  }),
});

/** One service UI behind the reverse proxy. */
export const ServiceUiEntry = Type.Object({
  name: Type.String({ description: 'The process_name.' }),
  port: Type.Integer(),
  path: Type.String({ description: 'The proxied route, /service/ui/<key>.' }),
});

/** GET /config/service-ui: whether the proxy is on, and the services it serves. */
export const ServiceUiList = Type.Object({
  enabled: Type.Boolean({ description: 'Whether the proxy routes are on.' }),
  services: Type.Array(ServiceUiEntry),
});

/** Body of POST /config/service-ui. */
export const ServiceUiToggle = Type.Object(
  { enabled: Type.Boolean() },
  { additionalProperties: false },
);

/** The answer of POST /config/service-ui. */
export const ServiceUiToggled = Type.Object({ message: Type.String(), enabled: Type.Boolean() });

/** Answer of a service-config dry run (`dry_run`, or POST /config/service-config/preview). */
export const ServiceConfigDryRun = Type.Object(
  {
    status: Type.Literal('dry_run'),
    service: Type.String(),
    config_key: Type.String(),
    service_path: Type.String(),
    config_format: ServiceConfigFormat,
    exists: Type.Boolean({ description: 'Whether the file exists now.' }),
    changed: Type.Boolean({ description: 'Whether the text differs from the file.' }),
    diff: Type.Array(ConfigFieldChangeSchema, {
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

/** Body of POST /config/service-config/preview. */
export const ServiceConfigPreviewBody = Type.Object(
  {
    service_name: Type.String({ minLength: 1, description: 'process_name (or config key).' }),
    updates: Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())], {
      description: 'The new file content (text), or the edited structure, as for the write.',
    }),
  },
  { additionalProperties: false },
);
