/** Parse and validate a request's path parameters, query and JSON body against its route. */
import type { TSchema } from '@sinclair/typebox';
import { parseBoundedJson } from '../../sdk/bounded-json.js';
import { parseQuery } from './query-string.js';
import type { RequestSnapshot } from './request-snapshot.js';
import type { RegisteredRoute } from './route-table.js';

/** The validated inputs, or the first failure (422). */
export type ParsedInputs =
  | { ok: true; params: unknown; query: unknown; body: unknown }
  | { ok: false; detail: string; code: string; field: string };

/** Coerce and validate params and query, decode and validate the body; the first failure wins. */
export function parseInputs(
  route: RegisteredRoute,
  snapshot: RequestSnapshot,
  rawBody: Buffer,
): ParsedInputs {
  let params: unknown = snapshot.params;
  if (route.params !== undefined) {
    const result = route.params.parse(snapshot.params, { coerce: true });
    if (!result.ok) return invalid('path parameter', result.failure);
    params = result.value;
  }
  let query: unknown =
    snapshot.rawQuery === '' ? {} : parseQuery(snapshot.rawQuery, route.query?.schema);
  if (route.query !== undefined) {
    const result = route.query.parse(query, { coerce: true });
    if (!result.ok) return invalid('query parameter', result.failure);
    query = result.value;
  }
  let body: unknown = undefined;
  if (route.body !== undefined) {
    const decoded = decodeJsonBody(rawBody, route.body.schema);
    if (!decoded.ok)
      return { ok: false, detail: decoded.detail, code: decoded.code, field: 'body' };
    const result = route.body.parse(decoded.value);
    if (!result.ok) return invalid('body field', result.failure);
    body = result.value;
  }
  return { ok: true, params, query, body };
}

function invalid(part: string, failure: { field: string; message: string }): ParsedInputs {
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
