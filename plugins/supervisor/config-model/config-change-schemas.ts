/** Wire schemas of previews, the ETag conflict, history and rollback of the configuration. */
import {
  ConfigFieldChangeSchema,
  JsonObject,
  StringEnum,
  Type,
  type Static,
} from '../../../sdk/index.js';
import { CONFIG_STALE } from '../errors.js';

/** One field's change (the sdk's schema: the same shape everywhere a diff is shown). */
export const FieldChange = ConfigFieldChangeSchema;

const Action = StringEnum(['restart', 'start', 'stop', 'reload_free', 'nothing'] as const, {
  description:
    'restart: stopped and started again; start/stop; reload_free: changed fields need no ' +
    'restart; nothing: no effect on the running process now.',
});

/** One process's part of a change. */
export const ProcessEffect = Type.Object({
  process_name: Type.String(),
  action: Action,
  reason: Type.String(),
  fields: Type.Array(Type.String(), {
    description: 'Block fields that changed (for a restart, those that force it).',
  }),
  because_of: Type.Union([Type.String(), Type.Null()], {
    description: 'The restarted process this one depends on (fan-out), else null.',
  }),
});

/** A valid change that is likely to break something. */
export const ChangeWarning = Type.Object(
  {
    process_name: Type.String({ description: 'The process that would be affected.' }),
    field: Type.String({ description: 'Dotted path of the field to look at.' }),
    detail: Type.String(),
  },
  { title: 'ConfigChangeWarning' },
);

const PLAN_EXAMPLE = {
  generation: 1764166000012,
  diff: [
    { path: 'web.port', old: 8080, new: 8081 },
    { path: 'web.env.API_KEY', secret: 'changed' },
  ],
  processes: [
    {
      process_name: 'Web',
      action: 'restart',
      reason: 'port, env changed',
      fields: ['port', 'env'],
      because_of: null,
    },
    {
      process_name: 'Sonarr',
      action: 'restart',
      reason: 'depends on Web, which restarts (restart_dependents)',
      fields: [],
      because_of: 'Web',
    },
    {
      process_name: 'Radarr',
      action: 'nothing',
      reason: 'unchanged',
      fields: [],
      because_of: null,
    },
  ],
  order: [
    { process_name: 'Web', action: 'restart' },
    { process_name: 'Sonarr', action: 'restart' },
  ],
  warnings: [
    {
      process_name: 'Sonarr',
      field: 'sonarr.wait_for_url',
      detail:
        'waits for http://127.0.0.1:8080/health, the old port of Web (now 8081); nothing ' +
        'listens there after this change, so its next start waits until its wait times out — ' +
        'change wait_for_url too',
    },
  ],
};

/** A change's plan: the field diff, per-process effects and their order. */
export const ChangePreview = Type.Object(
  {
    generation: Type.Integer({ description: 'The generation the preview was computed against.' }),
    diff: Type.Array(FieldChange),
    processes: Type.Array(ProcessEffect),
    order: Type.Array(Type.Object({ process_name: Type.String(), action: Action }), {
      description: 'The steps that change running processes, in the order they run.',
    }),
    warnings: Type.Array(ChangeWarning, {
      description:
        'Valid, but likely to break something: e.g. a process whose wait_for_url or ' +
        'wait_for_tcp still names the port another process moves off.',
    }),
  },
  { title: 'ConfigChangePreview', examples: [PLAN_EXAMPLE] },
);
/** Type of {@link ChangePreview}. */
export type ChangePreview = Static<typeof ChangePreview>;

/** 412: the client's If-Match names an older generation. */
export const StaleGeneration = Type.Object(
  {
    detail: Type.String(),
    code: Type.Literal(CONFIG_STALE),
    generation: Type.Integer({ description: 'The current generation (also in the ETag header).' }),
  },
  {
    title: 'ConfigStale',
    examples: [
      {
        detail: 'the configuration changed meanwhile; its generation is now 1764166000013',
        code: CONFIG_STALE,
        generation: 1764166000013,
      },
    ],
  },
);

const VersionFields = {
  version: Type.Integer({ minimum: 1 }),
  at: Type.String({ description: 'ISO time of the write.' }),
  actor: Type.String({ description: 'Who: a username, `api`, `file` (edited on disk), a plugin.' }),
  reason: Type.Union([Type.String(), Type.Null()]),
  diff: Type.Array(FieldChange, { description: 'Against the version before (secrets redacted).' }),
};

/** Answer of GET /config/history. */
export const HistoryList = Type.Object(
  {
    keep: Type.Integer({ description: 'Versions kept (stackd.config_history.keep).' }),
    versions: Type.Array(Type.Object(VersionFields), { description: 'Newest first.' }),
  },
  {
    title: 'ConfigHistory',
    examples: [
      {
        keep: 50,
        versions: [
          {
            version: 2,
            at: '2026-11-26T14:30:00.000Z',
            actor: 'alice',
            reason: 'move Web to 8081',
            diff: [{ path: 'web.port', old: 8080, new: 8081 }],
          },
        ],
      },
    ],
  },
);

/** Answer of GET /config/history/{version}. */
export const VersionDetail = Type.Object(
  { ...VersionFields, document: JsonObject },
  {
    title: 'ConfigVersion',
    description: 'The document as it was at that version, secrets redacted.',
  },
);

/** Path of GET /config/history/{version}. */
export const VersionParams = Type.Object({ version: Type.Integer({ minimum: 1 }) });

/** Body of POST /config/rollback. */
export const RollbackBody = Type.Object(
  {
    version: Type.Integer({
      minimum: 1,
      description: 'Restore the document as it was at this version.',
    }),
    dry_run: Type.Boolean({ default: false, description: 'Only preview: change nothing.' }),
    reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { examples: [{ version: 3, dry_run: true }] },
);

/** Answer of an applied rollback. */
export const RollbackResult = Type.Object(
  {
    status: StringEnum(['ok', 'dry_run'] as const, {
      description: 'dry_run: nothing changed; `plan` is what the rollback would do.',
    }),
    restored: Type.Integer({
      description: 'The version whose document is (or would be) in effect.',
    }),
    generation: Type.Integer(),
    plan: ChangePreview,
  },
  { title: 'ConfigRollback' },
);
