/** Wire schemas of the configuration routes (current and deprecated, docs/decisions.md §5). */
import { JsonObject, StringEnum, Type, type Static } from '../../../sdk/index.js';

const ProcessName = Type.String({
  minLength: 1,
  description: 'A process_name of the configuration (case, spaces and dashes are forgiven).',
});

/** Query of GET /config. */
export const ConfigQuery = Type.Object({
  process_name: Type.Optional(ProcessName),
});

/** Body of POST /config. */
export const ConfigUpdateBody = Type.Object({
  process_name: Type.Optional(ProcessName),
  updates: Type.Record(Type.String(), Type.Unknown(), {
    description:
      "With process_name: keys that replace the block's keys. Without: a partial document " +
      'deep-merged into the configuration (objects merge, arrays and values replace). A secret ' +
      'sent back as GET /config showed it ("[REDACTED]") or blank keeps the stored value.',
  }),
  persist: Type.Boolean({
    default: false,
    description:
      'Also write to the file (atomically). With process_name only that block is written; the ' +
      "file's other blocks stay as they are on disk.",
  }),
  reason: Type.Optional(
    Type.String({ maxLength: 500, description: 'Why: kept with the version in the history.' }),
  ),
});
/** Type of {@link ConfigUpdateBody}. */
export type ConfigUpdateBody = Static<typeof ConfigUpdateBody>;

/** Answer of POST /config. */
export const ConfigUpdateResponse = Type.Object(
  {
    status: Type.Literal('ok'),
    scope: StringEnum(['process', 'global'] as const),
    process_name: Type.Union([Type.String(), Type.Null()], {
      description: 'The process updated (its name before the update); null for a global update.',
    }),
    persisted: Type.Boolean({ description: 'True when the change was written to the file.' }),
    keys: Type.Array(Type.String(), {
      description: 'Keys updated: block keys, or top-level keys of a global update.',
    }),
  },
  { title: 'ConfigUpdateResult' },
);

/** Body of POST /config/process-config/schema. */
export const ProcessSchemaBody = Type.Object({ process_name: ProcessName });

/** Answer of POST /config/save (earlier generation). */
export const ConfigSaveResponse = Type.Object({
  status: Type.Literal('saved'),
  path: Type.String({ description: 'The file written.' }),
});

/** Answer of POST /config/validate (earlier generation). */
export const ConfigValidateResponse = Type.Object(
  {
    valid: Type.Boolean(),
    errors: Type.Array(
      Type.Object({
        field: Type.String({ description: 'Dotted path from the document root.' }),
        message: Type.String(),
      }),
    ),
  },
  { title: 'ConfigValidation' },
);

/** A configuration document, block or JSON schema. */
export const ConfigDocument = JsonObject;
