/**
 * Request bodies for one operation: a plausible body from its schema, or that body broken in one
 * of the ways clients (and attackers) break them.
 */
import {
  BODY_LIMIT_BYTES,
  HOSTILE_STRINGS,
  INVALID_UTF8,
  MALFORMED_JSON,
  deepValue,
  hostileNumber,
  hostileValue,
  hugeString,
} from './hostile-values.js';
import { deepNesting, toJsonText, type FuzzValue } from './json-text.js';
import type { JsonSchema } from './openapi-model.js';
import type { Prng } from './prng.js';
import { plausibleValue, propertyNames, type KnownNames } from './schema-values.js';

/** A generated body: what it is (for reports), its bytes and content type. */
export interface BodyCase {
  readonly kind: string;
  readonly bytes: Buffer;
  readonly contentType: string | undefined;
}

const JSON_TYPE = 'application/json';

function json(kind: string, value: FuzzValue): BodyCase {
  return { kind, bytes: Buffer.from(toJsonText(value), 'utf8'), contentType: JSON_TYPE };
}

function asRecord(value: FuzzValue): Record<string, FuzzValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? { ...(value as Record<string, FuzzValue>) }
    : {};
}

/** Replace one field of the plausible body (or add one when the schema names none). */
function withField(
  schema: JsonSchema,
  base: FuzzValue,
  prng: Prng,
  value: FuzzValue,
): Record<string, FuzzValue> {
  const record = asRecord(base);
  const fields = propertyNames(schema);
  record[fields.length > 0 ? prng.pick(fields) : 'fuzz_field'] = value;
  return record;
}

/** Invalid UTF-8 inside a JSON string of an otherwise plausible body. */
function invalidUtf8Body(schema: JsonSchema, base: FuzzValue, prng: Prng): Buffer {
  const marker = 'FUZZ_INVALID_UTF8_MARKER';
  const text = toJsonText(withField(schema, base, prng, marker));
  const [before, after] = text.split(marker) as [string, string];
  return Buffer.concat([
    Buffer.from(before, 'utf8'),
    prng.pick(INVALID_UTF8),
    Buffer.from(after, 'utf8'),
  ]);
}

/** An oversized body: valid JSON, over the limit. */
function oversizedBody(prng: Prng): Buffer {
  const size = BODY_LIMIT_BYTES + prng.pick([1, 1024, 512 * 1024]);
  return Buffer.from(`{"pad":"${'p'.repeat(size)}"}`, 'utf8');
}

/** One body for an operation whose schema is `schema` (undefined: the route takes none). */
export function bodyCase(
  schema: JsonSchema | undefined,
  prng: Prng,
  names: KnownNames,
  options: { readonly heavy: boolean },
): BodyCase | undefined {
  const effective = schema ?? {};
  const base = plausibleValue(effective, prng, names);
  const fields = propertyNames(effective);
  // A route without a body mostly gets none; sometimes the same hostile bodies anyway.
  if (schema === undefined && prng.chance(0.7)) return undefined;
  const roll = prng.int(0, options.heavy ? 16 : 14);
  switch (roll) {
    case 0:
    case 1:
      return json('valid', base);
    case 2:
      return json('wrong-type-field', withField(effective, base, prng, hostileValue(prng)));
    case 3: {
      const record = asRecord(base);
      const required = effective.required ?? fields;
      if (required.length > 0) delete record[prng.pick(required)];
      return json('missing-field', record);
    }
    case 4: {
      const record = asRecord(base);
      record.fuzz_extra = hostileValue(prng);
      // An own "__proto__" key, as JSON.parse would make it (a literal would set the prototype).
      Object.defineProperty(record, '__proto__', {
        value: { polluted: true },
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return json('extra-fields', record);
    }
    case 5:
      return json(
        'wrong-top-type',
        prng.pick<FuzzValue>([[base], 'text', 42, null, true, [], hostileNumber(prng)]),
      );
    case 6:
      return {
        kind: 'deep-body',
        bytes: Buffer.from(deepNesting(prng.pick([1_000, 3_000]), prng.pick(['array', 'object']))),
        contentType: JSON_TYPE,
      };
    case 7:
      return json('deep-field', withField(effective, base, prng, deepValue(prng)));
    case 8:
      return json('huge-number', withField(effective, base, prng, hostileNumber(prng)));
    case 9:
      return json('hostile-string', withField(effective, base, prng, prng.pick(HOSTILE_STRINGS)));
    case 10:
      return {
        kind: 'invalid-utf8',
        bytes: invalidUtf8Body(effective, base, prng),
        contentType: JSON_TYPE,
      };
    case 11:
      return {
        kind: 'malformed-json',
        bytes: Buffer.from(prng.pick(MALFORMED_JSON), 'utf8'),
        contentType: JSON_TYPE,
      };
    case 12:
      return {
        kind: 'content-type',
        bytes: Buffer.from(toJsonText(base), 'utf8'),
        contentType: prng.pick([
          undefined,
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16',
          'application/json; charset=latin1',
        ]),
      };
    case 13:
      return { kind: 'empty', bytes: Buffer.alloc(0), contentType: JSON_TYPE };
    case 14:
      return json(
        'unicode',
        withField(
          effective,
          base,
          prng,
          prng.pick(['\ud800', '\udfff', '\u0000', '🚀'.repeat(100)]),
        ),
      );
    case 15:
      return json('huge-string', withField(effective, base, prng, hugeString(prng)));
    default:
      return { kind: 'oversized', bytes: oversizedBody(prng), contentType: JSON_TYPE };
  }
}
