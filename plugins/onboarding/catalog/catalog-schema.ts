/** The TypeBox schema of catalog entries and catalog files (`{ "services": [...] }`). */
import { StringEnum, Type, type Static } from '../../../sdk/index.js';

const Key = Type.String({ pattern: '^[A-Za-z0-9_-]+$', description: 'A config key.' });

/** Mirrors `CatalogService` of sdk/contracts/service-catalog.ts. */
export const CatalogServiceSchema = Type.Object(
  {
    key: Key,
    name: Type.String({ minLength: 1 }),
    role: StringEnum(['core', 'dependency', 'optional'] as const),
    description: Type.Optional(Type.String()),
    aliases: Type.Optional(Type.Array(Type.String())),
    template: Type.Record(Type.String(), Type.Unknown()),
    dependencies: Type.Optional(Type.Array(Key)),
    per_core_instance: Type.Optional(Type.Boolean()),
    instance_process_name: Type.Optional(Type.String({ minLength: 1 })),
    supports_instances: Type.Optional(Type.Boolean()),
    debrid_providers: Type.Optional(Type.Array(Type.String())),
    debrid_key_field: Type.Optional(
      Type.String({ pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$' }),
    ),
    options: Type.Optional(Type.Record(Type.String(), Type.String())),
    start: Type.Optional(StringEnum(['before_core', 'after_core'] as const)),
    config_format: Type.Optional(StringEnum(['json', 'yaml', 'conf', 'python', 'xml'] as const)),
  },
  { additionalProperties: false },
);

/** A catalog file. */
export const CatalogFileSchema = Type.Object({ services: Type.Array(CatalogServiceSchema) });
/** Type of {@link CatalogFileSchema}. */
export type CatalogFile = Static<typeof CatalogFileSchema>;
