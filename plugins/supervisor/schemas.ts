/**
 * Request and response schemas of the process routes (status, startup status, update notices)
 * and the /ws/status stream.
 */
import { JsonObject, Nullable, StringEnum, Type, type Static } from '../../sdk/index.js';

/** Process status values (docs/decisions.md §11). */
export const ProcessStatusSchema = StringEnum(
  ['running', 'stopped', 'starting', 'stopping', 'crashed', 'backoff'] as const,
  {
    description:
      'running; stopped; starting (waiting for its dependencies or checking it stays up); ' +
      'stopping; crashed (exited unexpectedly, or failed to start); backoff (waiting to restart)',
  },
);

const ProcessName = Type.String({
  description: 'The process_name of a block (case and spaces are forgiven).',
});

/** `{process_name}` bodies of the control routes. */
export const ProcessNameBody = Type.Object({ process_name: ProcessName });

/** One entry of GET /process/processes. */
export const ProcessListEntry = Type.Object({
  name: Type.String({ description: 'Key path of the block: `sonarr instances Anime`.' }),
  process_name: Type.String(),
  enabled: Type.Boolean(),
  config: Type.Record(Type.String(), Type.Unknown(), {
    description: 'The block, secrets masked as "********".',
  }),
  version: Type.String({ description: 'version, release_version or pinned_version; else "".' }),
  key: Type.String({ description: 'The immediate key: instance name, else the config key.' }),
  config_key: Type.String(),
  repo_url: Type.String(),
  sponsorship_url: Type.String(),
  status: ProcessStatusSchema,
  pid: Type.Union([Type.Integer(), Type.Null()]),
  restarts: Type.Integer(),
  uptime_s: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
    description: 'Seconds since the last start while the process is up, else null.',
  }),
  cpu_percent: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
    description:
      'CPU of the process tree (100 = one full core) from the latest `processes` metrics sample; ' +
      'null while the process is down or before a sample was taken.',
  }),
  rss_bytes: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
    description: 'Resident memory of the process tree from the same sample, else null.',
  }),
});
/** Type of {@link ProcessListEntry}. */
export type ProcessListEntry = Static<typeof ProcessListEntry>;

export const ProcessListBody = Type.Object({ processes: Type.Array(ProcessListEntry) });
/** Type of {@link ProcessListBody}. */
export type ProcessListBody = Static<typeof ProcessListBody>;

const ParallelGroup = Type.Object({
  id: Type.String(),
  label: Type.String(),
  type: Type.Literal('parallel'),
  members: Type.Array(Type.String()),
});

export const ProcessDetailQuery = Type.Object({
  process_name: ProcessName,
  scope: StringEnum(['runtime', 'all'] as const, {
    default: 'runtime',
    description: 'runtime: hard dependencies; all: soft linkage too.',
  }),
});

/**
 * Present (true) while the running process is one a previous host launched and this host
 * adopted after a restart or planned handover: uptime and restarts continue from that launch.
 */
export const AdoptionFields = {
  adopted: Type.Optional(
    Type.Boolean({ description: 'The running process was adopted from a previous host.' }),
  ),
  adopted_at: Type.Optional(
    Type.Integer({ description: 'With adopted: epoch ms of the adoption.' }),
  ),
  adopted_by_host_start: Type.Optional(
    Type.Integer({ description: 'With adopted: epoch ms at which the adopting host started.' }),
  ),
};
const HowEnforced = Type.Union([Type.String(), Type.Null()], {
  description: 'How the limit is enforced ("cgroup v1 memory", "watch: …"); null when not set.',
});

/** How a process is contained and its limits enforced, and the last limit it hit. */
export const LimitsView = Type.Object({
  isolation: Type.String({
    description: 'Its own cgroup ("cgroup v2", "cgroup v1 (…)") or "none: <why>".',
  }),
  memory_max: HowEnforced,
  memory_high: HowEnforced,
  cpu_max: HowEnforced,
  pids_max: HowEnforced,
  last_event: Type.Union([
    Type.Object({ reason: Type.String(), limit: Type.String(), at: Type.Number() }),
    Type.Null(),
  ]),
});

export const ProcessDetailBody = Type.Object({
  process_name: Type.String(),
  config: JsonObject,
  version: Type.String(),
  config_key: Type.String(),
  parallel_groups: Type.Array(ParallelGroup, {
    description: 'From the graph plugin when it is loaded, else empty.',
  }),
  repo_url: Type.String(),
  sponsorship_url: Type.String(),
  status: ProcessStatusSchema,
  ...AdoptionFields,
  limits: Type.Optional(LimitsView),
});

export const ServiceStatusQuery = Type.Object({
  process_name: ProcessName,
  include_health: Type.Optional(
    Type.Boolean({ description: 'Add healthy, health_status, health_reason and health_details.' }),
  ),
});

/** GET /process/service-status (docs/decisions.md §11). */
export const ServiceStatusBody = Type.Object({
  process_name: Type.String(),
  status: ProcessStatusSchema,
  pid: Type.Optional(Type.Integer()),
  exit_code: Type.Optional(Type.Integer({ description: 'Of the last exit; 128+n for signal n.' })),
  restarts: Type.Integer({ description: 'Starts after the first one since the host started.' }),
  uptime_s: Type.Optional(Type.Number()),
  reason: Type.Optional(
    Type.String({ description: 'Why it is in this state (a wait, a failure).' }),
  ),
  healthy: Type.Optional(
    Type.Boolean({ description: 'With include_health: running and not in trouble' }),
  ),
  health_status: Type.Optional(
    Type.String({
      description: 'With include_health: healthy, unhealthy (crashed, backoff) or stopped',
    }),
  ),
  health_reason: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  health_details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  ...AdoptionFields,
});
/** Type of {@link ServiceStatusBody}. */
export type ServiceStatusBody = Static<typeof ServiceStatusBody>;

/** Answer of start-service, stop-service and restart-service. */
export const ControlBody = Type.Object({
  status: ProcessStatusSchema,
  process_name: Type.String(),
  message: Type.String({
    description:
      '"Service started successfully", "Service stopped successfully", "Service restarted ' +
      'successfully", "Service was not running", or what a start is still waiting for.',
  }),
  pid: Type.Optional(Type.Integer()),
  exit_code: Type.Optional(Type.Integer()),
});
/** Type of {@link ControlBody}. */
export type ControlBody = Static<typeof ControlBody>;

/** Earlier-generation start/restart answer. */
export const LegacyControlBody = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  pid: Type.Union([Type.Integer(), Type.Null()]),
});

/** Query of /ws/status: `interval` seconds (float, clamped 0.5–10; unparsable → 2). */
export const StatusStreamQuery = Type.Object({
  interval: Type.Optional(
    Type.String({ description: 'Seconds between periodic frames (0.5–10, default 2).' }),
  ),
});

/** One process in a /ws/status frame. */
export const StatusFrameProcess = Type.Object({
  process_name: Type.String(),
  status: ProcessStatusSchema,
  pid: Type.Union([Type.Integer(), Type.Null()]),
  restarts: Type.Integer(),
  uptime_s: Type.Optional(Type.Number()),
  reason: Type.Optional(Type.String()),
});

/** A /ws/status frame: on connect, on every change and every `interval` seconds. */
export const StatusFrame = Type.Object({
  type: Type.Literal('status'),
  running: Type.Array(Type.String(), { description: 'Names of running processes (the API too).' }),
  processes: Type.Array(StatusFrameProcess),
});
/** Type of {@link StatusFrame}. */
export type StatusFrame = Static<typeof StatusFrame>;

/** One expected process in the startup status. */
export const StartupReadiness = Type.Object({
  state: StringEnum(['pending', 'starting', 'ready', 'failed'] as const),
  reason: Type.String(),
  health_status: Nullable(Type.String()),
});

/** GET /process/startup-status: the boot lifecycle of the stack. */
export const StartupStatusBody = Type.Object({
  phase: StringEnum(
    ['initializing', 'starting_services', 'ready', 'degraded', 'shutting_down'] as const,
    {
      description:
        'initializing → starting_services → ready | degraded (some enabled process failed to ' +
        'start); shutting_down once the host stops. ready, degraded and shutting_down are terminal.',
    },
  ),
  terminal: Type.Boolean(),
  started_at: Nullable(Type.String({ format: 'date-time' })),
  completed_at: Nullable(Type.String({ format: 'date-time' })),
  expected_services: Type.Array(Type.String(), {
    description: 'The processes enabled at boot, sorted',
  }),
  services: Type.Record(Type.String(), StartupReadiness, {
    description: 'Each expected process: pending, starting, ready (running) or failed, with why',
  }),
  failures: Type.Record(Type.String(), Type.String(), {
    description:
      'Processes that failed to start at boot or crashed since and were left crashed, with the reason',
  }),
});

/** A list of update notices. */
const Notices = Type.Array(Type.Record(Type.String(), Type.Unknown()), {
  description: 'Always empty: stackd has no self-update',
});

/** Query of GET /process/update-notices. */
export const UpdateNoticesQuery = Type.Object({ scope: Type.String({ default: 'project' }) });

/** GET /process/update-notices: always none, in the shape the DUMB dashboard reads. */
export const UpdateNoticesBody = Type.Object({
  scope: Type.String(),
  available: Notices,
  info: Notices,
  applied: Notices,
});
