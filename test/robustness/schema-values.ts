/**
 * Plausible values from a route's JSON schema: what a correct client would send, with names
 * the host actually knows (process names, users) so requests reach the handlers and not only the
 * validator. The mutators in body-cases.ts then break them.
 */
import type { FuzzValue } from './json-text.js';
import type { JsonSchema } from './openapi-model.js';
import type { Prng } from './prng.js';

/** Names the host knows, so plausible values hit real state. */
export interface KnownNames {
  /** process_name values of the fuzz configuration (including one that fails to start). */
  readonly processNames: readonly string[];
  /** Config keys of the service blocks (proxy keys). */
  readonly configKeys: readonly string[];
  /** Usernames the fuzzer may create, change and delete (never the admin it signs in with). */
  readonly usernames: readonly string[];
  /** Strings sent where a token is expected (none of them the admin's refresh token). */
  readonly tokenLike: readonly string[];
}

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const USERNAME_CHARS = `${ALPHANUMERIC}_.-`;

function randomText(prng: Prng, alphabet: string, min: number, max: number): string {
  const length = prng.int(min, Math.max(min, max));
  let text = '';
  for (let index = 0; index < length; index += 1)
    text += alphabet[prng.int(0, alphabet.length - 1)];
  return text;
}

function typeOf(schema: JsonSchema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  return schema.type?.[0];
}

/** A name-aware string for a field, or undefined to fall back to the schema. */
function knownString(field: string, names: KnownNames, prng: Prng): string | undefined {
  if (/process_name|service_name|core_service|^name$/.test(field) && prng.chance(0.8)) {
    const name = prng.pick(names.processNames);
    return prng.pick([name, name.toLowerCase(), name.replace(/ /g, '-'), name.toUpperCase()]);
  }
  if (field === 'username') return prng.pick(names.usernames);
  if (field === 'password') return `fuzz-password-${prng.int(0, 9)}`;
  if (/token/.test(field)) return prng.pick(names.tokenLike);
  if (field === 'key') return prng.pick(names.configKeys);
  return undefined;
}

/** A value valid against `schema` (as far as the generator understands it). */
export function plausibleValue(
  schema: JsonSchema,
  prng: Prng,
  names: KnownNames,
  field = '',
  depth = 0,
): FuzzValue {
  if (schema.const !== undefined) return schema.const as FuzzValue;
  if (schema.enum !== undefined && schema.enum.length > 0)
    return prng.pick(schema.enum) as FuzzValue;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined && alternatives.length > 0)
    return plausibleValue(prng.pick(alternatives), prng, names, field, depth);
  switch (typeOf(schema)) {
    case 'string': {
      const known = knownString(field, names, prng);
      if (known !== undefined) return known;
      const min = schema.minLength ?? 1;
      const max = Math.min(schema.maxLength ?? 16, min + 16);
      const alphabet = schema.pattern?.includes('_.-') === true ? USERNAME_CHARS : ALPHANUMERIC;
      return randomText(prng, alphabet, min, max);
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? 0;
      const max = schema.maximum ?? min + 100;
      const value = min + prng.next() * (max - min);
      return typeOf(schema) === 'integer' ? Math.ceil(value) : value;
    }
    case 'boolean':
      return prng.chance(0.5);
    case 'array': {
      const count = depth > 3 ? 0 : prng.int(schema.minItems ?? 0, 3);
      return Array.from({ length: count }, () =>
        plausibleValue(schema.items ?? {}, prng, names, field, depth + 1),
      );
    }
    case 'object':
      return plausibleObject(schema, prng, names, depth);
    default:
      return depth > 3 ? null : prng.pick<FuzzValue>([1, 'text', true, null, { fuzz: 1 }]);
  }
}

function plausibleObject(
  schema: JsonSchema,
  prng: Prng,
  names: KnownNames,
  depth: number,
): FuzzValue {
  const result: Record<string, FuzzValue> = {};
  const required = new Set(schema.required ?? []);
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (required.has(key) || prng.chance(0.5))
      result[key] = plausibleValue(property, prng, names, key, depth + 1);
  }
  const freeForm =
    schema.patternProperties !== undefined ||
    (schema.properties === undefined && schema.additionalProperties !== false);
  if (freeForm && depth < 3) {
    for (let index = prng.int(0, 2); index > 0; index -= 1)
      result[`fuzz_${randomText(prng, ALPHANUMERIC, 3, 8)}`] = prng.pick<FuzzValue>([
        1,
        'text',
        false,
        null,
        [1, 2],
      ]);
  }
  return result;
}

/** The property names of an object schema (empty for anything else). */
export function propertyNames(schema: JsonSchema): string[] {
  return Object.keys(schema.properties ?? {});
}
