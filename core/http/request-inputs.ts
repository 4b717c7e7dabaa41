/** Parse and validate a request's path parameters, query and JSON body against its route. */
import type { TSchema } from '@sinclair/typebox';
import { parseBoundedJson } from '../../sdk/bounded-json.js';
import type { CompiledSchema } from '../schema/compiler.js';
import { parseQuery } from './query-string.js';
import type { RequestSnapshot } from './request-snapshot.js';
import type { RegisteredRoute } from './route-table.js';

/** The validated inputs, or the first failure (422). */
export type ParsedInputs =
  | { ok: true; params: unknown; query: unknown; body: unknown }
  | { ok: false; detail: string; code: string; field: string };

/** What a query schema makes of a request without a query string, worked out once. */
type EmptyQuery = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

const NO_QUERY: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * The inputs of one route. Most requests carry no query string: the schema's answer to an empty
 * query (its defaults) is the same every time, so it is computed on the first such request and
 * shared, frozen, by the next ones instead of being copied, coerced and defaulted again.
 */
export class RouteInputs {
  private emptyQuery: EmptyQuery | undefined;

  constructor(private readonly route: RegisteredRoute) {}

  /** Coerce and validate params and query, decode and validate the body; the first failure wins. */
  parse(snapshot: RequestSnapshot, rawBody: Buffer): ParsedInputs {
    const { route } = this;
    let params: unknown = snapshot.params;
    if (route.params !== undefined) {
      // Copied first: the snapshot's params may be the empty set every request shares.
      const result = route.params.parse(snapshot.params, { coerce: true });
      if (!result.ok) return invalid('path parameter', result.failure);
      params = result.value;
    }
    let query: unknown = NO_QUERY;
    if (snapshot.rawQuery !== '' || route.query !== undefined) {
      const parsed = this.query(snapshot.rawQuery, route.query);
      if (!parsed.ok) return parsed;
      query = parsed.value;
    }
    let body: unknown = undefined;
    if (route.body !== undefined) {
      const decoded = decodeJsonBody(rawBody, route.body.schema);
      if (!decoded.ok)
        return { ok: false, detail: decoded.detail, code: decoded.code, field: 'body' };
      const result = route.body.parse(decoded.value, { owned: true });
      if (!result.ok) return invalid('body field', result.failure);
      body = result.value;
    }
    return { ok: true, params, query, body };
  }

  private query(
    rawQuery: string,
    schema: CompiledSchema | undefined,
  ): { ok: true; value: unknown } | Extract<ParsedInputs, { ok: false }> {
    if (schema === undefined) return { ok: true, value: parseQuery(rawQuery, undefined) };
    if (rawQuery === '') {
      this.emptyQuery ??= emptyQueryOf(schema);
      if (this.emptyQuery.ok) return this.emptyQuery;
    }
    const result = schema.parse(rawQuery === '' ? {} : parseQuery(rawQuery, schema.schema), {
      coerce: true,
      owned: true,
    });
    if (!result.ok) return invalid('query parameter', result.failure);
    return { ok: true, value: result.value };
  }
}

function emptyQueryOf(schema: CompiledSchema): EmptyQuery {
  const result = schema.parse({}, { coerce: true, owned: true });
  return result.ok ? { ok: true, value: deepFreeze(result.value) } : { ok: false };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function invalid(
  part: string,
  failure: { field: string; message: string },
): Extract<ParsedInputs, { ok: false }> {
  const field = failure.field === '' ? 'body' : failure.field;
  return {
    ok: false,
    detail: `Invalid ${part} '${field}': ${failure.message}`,
    code: 'REQUEST_INVALID',
    field,
  };
}

function decodeJsonBody(
  raw: Buffer,
  schema: TSchema,
): { ok: true; value: unknown } | { ok: false; detail: string; code: string } {
  const text = raw.toString('utf8').trim();
  // An empty body against an object schema reads as `{}`, so the missing field gets named.
  if (text.length === 0) return { ok: true, value: schema.type === 'object' ? {} : undefined };
  const parsed = parseBoundedJson(text);
  if (parsed.ok) return parsed;
  return {
    ok: false,
    detail: `Request body: ${parsed.detail}`,
    code: parsed.reason === 'too-deep' ? 'REQUEST_TOO_DEEP' : 'REQUEST_MALFORMED_JSON',
  };
}
