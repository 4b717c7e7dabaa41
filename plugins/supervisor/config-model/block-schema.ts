/**
 * The TypeBox schemas of the configuration document's blocks (CONTRACT.md "The configuration
 * file"): known fields are typed, unknown fields are allowed and kept (the file is the user's).
 * These schemas validate every update (config-validation.ts) and are what GET /config/schema and
 * POST /config/process-config/schema show.
 */
import { OutboundSettings, Type, type Static, type TSchema } from '../../../sdk/index.js';
import { LimitFields } from '../limits/limit-fields.js';

const open = { additionalProperties: true } as const;

/** A TCP/UDP port a service listens on. */
export const PortNumber = Type.Integer({ minimum: 1, maximum: 65_535 });

const NonEmptyString = Type.String({ minLength: 1, pattern: '\\S' });
const PositiveSeconds = Type.Number({ exclusiveMinimum: 0 });

/** One URL to wait for before starting (a plain URL or a probe description). */
export const WaitForUrlEntry = Type.Union([
  NonEmptyString,
  Type.Object(
    {
      url: NonEmptyString,
      auth: Type.Optional(Type.Object({ user: Type.String(), password: Type.String() }, open)),
      probe_method: Type.Optional(Type.String()),
      probe_headers: Type.Optional(Type.Record(Type.String(), Type.String())),
      timeout: Type.Optional(PositiveSeconds),
      expected_json_path: Type.Optional(Type.String()),
    },
    open,
  ),
]);

/** One TCP endpoint to wait for before starting. */
export const WaitForTcpEntry = Type.Object(
  {
    host: Type.Optional(Type.String()),
    port: PortNumber,
    name: Type.Optional(Type.String()),
    timeout: Type.Optional(PositiveSeconds),
  },
  open,
);

const Seconds = Type.Number({ minimum: 0 });

/** Per-block override of the supervisor's restart policy. */
const RestartPolicyBlock = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    base_sec: Type.Optional(Seconds),
    factor: Type.Optional(Type.Number({ minimum: 1 })),
    max_sec: Type.Optional(Seconds),
    reset_after_sec: Type.Optional(Seconds),
    max_restarts: Type.Optional(Type.Integer({ minimum: 0 })),
    window_seconds: Type.Optional(Type.Number({ minimum: 1 })),
  },
  open,
);

/** Health probing of a running process (TCP connects to its ports). */
const HealthCheckBlock = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    interval_sec: Type.Optional(Seconds),
    unhealthy_threshold: Type.Optional(Type.Integer({ minimum: 1 })),
    grace_sec: Type.Optional(Seconds),
    ports: Type.Optional(Type.Array(PortNumber)),
  },
  open,
);

const StringOrList = Type.Union([Type.String(), Type.Array(Type.String())]);

/** A process block: `process_name` (and usually `command`) plus typed known fields. */
export const ProcessBlock = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    process_name: Type.String({
      minLength: 1,
      pattern: '\\S',
      description: 'Unique name used in every request.',
    }),
    command: Type.Optional(
      Type.Union([Type.Array(Type.String(), { minItems: 1 }), NonEmptyString], {
        description:
          'Argument vector (at least the program); a string is split like a shell would, ' +
          'without a shell.',
      }),
    ),
    port: Type.Optional(PortNumber),
    host: Type.Optional(Type.String()),
    env: Type.Optional(Type.Record(Type.String(), Type.String())),
    log_file: Type.Optional(Type.String()),
    log_level: Type.Optional(Type.String()),
    config_dir: Type.Optional(Type.String()),
    config_file: Type.Optional(Type.String()),
    suppress_logging: Type.Optional(Type.Boolean()),
    core_service: Type.Optional(StringOrList),
    core_services: Type.Optional(Type.Array(Type.String())),
    wait_for_url: Type.Optional(Type.Union([Type.Array(WaitForUrlEntry), WaitForUrlEntry])),
    wait_for_tcp: Type.Optional(Type.Union([Type.Array(WaitForTcpEntry), WaitForTcpEntry])),
    wait_for_dir: Type.Optional(StringOrList),
    wait_for_mounts: Type.Optional(Type.Array(Type.String())),
    stop_signal: Type.Optional(
      Type.String({ description: 'Signal sent to the process group on stop (default SIGTERM).' }),
    ),
    stop_timeout: Type.Optional(
      Type.Number({ minimum: 0, description: 'Seconds between the stop signal and SIGKILL.' }),
    ),
    wait_timeout: Type.Optional(
      Type.Number({ minimum: 0, description: 'Seconds all pre-start waits may take together.' }),
    ),
    auto_restart: Type.Optional(
      Type.Boolean({ description: 'Restart after an unexpected exit (false opts out).' }),
    ),
    restart_policy: Type.Optional(RestartPolicyBlock),
    restart_dependents: Type.Optional(
      Type.Boolean({
        description:
          'When a configuration change restarts this process, restart the running processes ' +
          'that depend on it too (default false).',
      }),
    ),
    health_check: Type.Optional(
      Type.Union([Type.Boolean(), HealthCheckBlock], {
        description: 'true: probe `port` with the defaults; false: off; an object tunes the probe.',
      }),
    ),
    ...LimitFields,
  },
  { ...open, title: 'ProcessBlock' },
);
/** Type of {@link ProcessBlock}. */
export type ProcessBlock = Static<typeof ProcessBlock>;

/** `stackd.api_service`: the API itself (CONTRACT.md). */
export const ApiServiceBlock = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    process_name: Type.Optional(NonEmptyString),
    log_level: Type.Optional(Type.String()),
    host: Type.Optional(Type.String()),
    // 0 picks a free port (CONTRACT.md `--port`).
    port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65_535 })),
    trusted_proxies: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description:
          'Addresses or CIDRs of reverse proxies in front of stackd (default none). Only from ' +
          'these is X-Forwarded-For believed: the client is the right-most address in it that ' +
          'is not itself a trusted proxy. Rate limits and logs use that address.',
      }),
    ),
  },
  { ...open, title: 'ApiServiceBlock' },
);

/** True when an object is treated as a process block: it names a process or a command. */
export function looksLikeProcessBlock(value: Record<string, unknown>): boolean {
  return 'process_name' in value || 'command' in value;
}

/** JSON without TypeBox's symbol keys (what the schema routes return). */
function plain(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

/** The schema a process's block is validated against (the API service has its own). */
export function blockJsonSchema(self: boolean): Record<string, unknown> {
  return plain(self ? ApiServiceBlock : ProcessBlock);
}

/**
 * The whole document's JSON schema (draft 2020-12 style `if`/`then`): an object-valued key that
 * names a process or a command is a process block; `instances` holds process blocks; anything
 * else is the user's and kept as is.
 */
export function documentJsonSchema(
  slices: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const processBlockRule = {
    if: {
      type: 'object',
      anyOf: [{ required: ['process_name'] }, { required: ['command'] }],
    },
    then: plain(ProcessBlock),
  };
  const serviceBlock = {
    if: { type: 'object', required: ['instances'], properties: { instances: { type: 'object' } } },
    then: { properties: { instances: { additionalProperties: processBlockRule } } },
    else: processBlockRule,
  };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'stackd configuration',
    type: 'object',
    properties: {
      stackd: {
        type: 'object',
        description: "The host's own section.",
        properties: {
          ...slices,
          api_service: plain(ApiServiceBlock),
          outbound: plain(OutboundSettings),
        },
        additionalProperties: true,
      },
    },
    additionalProperties: serviceBlock,
  };
}
