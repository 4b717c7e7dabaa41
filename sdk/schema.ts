/**
 * Schema helpers re-exported for plugins: TypeBox builds the schemas that validate requests,
 * type handlers and become the OpenAPI document. Plugins import `Type` from here so the whole
 * project shares one TypeBox copy.
 */
import { Value } from '@sinclair/typebox/value';
import {
  Kind,
  Type,
  TypeRegistry,
  type Static,
  type TSchema,
  type TObject,
  type TUnsafe,
} from '@sinclair/typebox';

export { Type };
export type { Static, TSchema, TObject };

/** The JSON error body every failing route returns (docs/decisions.md §2). */
export const ErrorBody = Type.Object(
  {
    detail: Type.String({ description: 'What went wrong, for people.' }),
    code: Type.String({ description: 'Stable machine-readable code, AREA_REASON.' }),
    field: Type.Optional(Type.String({ description: 'The request field at fault.' })),
  },
  { $id: 'ErrorBody', title: 'ErrorBody' },
);
/** Type of {@link ErrorBody}. */
export type ErrorBody = Static<typeof ErrorBody>;

/** A plain `{ message }` acknowledgement body. */
export const MessageBody = Type.Object({ message: Type.String() });

/** `schema` or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A string enum as a JSON-Schema `enum` (OpenAPI renders it as one list). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({
    [Kind]: 'StringEnum',
    type: 'string',
    enum: [...values],
    ...options,
  });
}

// The compiler needs a check for the custom kind; registered once, wherever the sdk is loaded.
if (!TypeRegistry.Has('StringEnum')) {
  TypeRegistry.Set<{ enum: string[] }>(
    'StringEnum',
    (schema, value) => typeof value === 'string' && schema.enum.includes(value),
  );
}

/** A JSON value of any shape (config blocks, free-form payloads). */
export const JsonValue = Type.Unknown();

/** A JSON object with free-form keys. */
export const JsonObject = Type.Record(Type.String(), Type.Unknown());
/** Type of {@link JsonObject}. */
export type JsonObject = Static<typeof JsonObject>;

/** One failed check: the dotted field path (relative to the value) and why. */
export interface SchemaFailure {
  readonly field: string;
  readonly message: string;
}

/** `/wait_for_tcp/0/port` (a JSON pointer) → `wait_for_tcp.0.port`. */
export function pointerToField(pointer: string): string {
  return pointer
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/**
 * Check a value against a schema outside a route (config documents, files): up to `limit`
 * failures, one per field, empty when valid.
 */
export function checkValue(schema: TSchema, value: unknown, limit = 20): SchemaFailure[] {
  if (Value.Check(schema, value)) return [];
  const failures: SchemaFailure[] = [];
  const seen = new Set<string>();
  for (const error of Value.Errors(schema, value)) {
    const field = pointerToField(error.path);
    // A union reports each failed branch at the same path; one message per field is enough.
    if (seen.has(field)) continue;
    seen.add(field);
    failures.push({ field, message: error.message });
    if (failures.length >= limit) break;
  }
  return failures;
}

/** A copy of `value` with the schema's defaults filled in (objects and arrays, nested). */
export function withDefaults<T extends TSchema>(schema: T, value: unknown): unknown {
  return Value.Default(schema, structuredClone(value));
}
