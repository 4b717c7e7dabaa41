/**
 * One fuzz request for an operation of the OpenAPI document: its path with plausible or hostile
 * parameters, a query, a body (body-cases.ts) and who sends it (the admin token, a bad token, or
 * nobody).
 */
import { bodyCase } from './body-cases.js';
import {
  HOSTILE_NUMBER_TEXTS,
  HOSTILE_SEGMENTS,
  HOSTILE_STRINGS,
  MALFORMED_PERCENT,
} from './hostile-values.js';
import type { Operation, Parameter } from './openapi-model.js';
import type { Prng } from './prng.js';
import type { RawRequest } from './raw-client.js';
import { plausibleValue, type KnownNames } from './schema-values.js';

/** A planned request and what it is, for reports. */
export interface PlannedRequest {
  readonly raw: RawRequest;
  readonly label: string;
  readonly kind: string;
}

/** Percent-encode UTF-8 bytes (lone surrogates turn into U+FFFD, never a throw). */
function percentEncode(text: string): string {
  let encoded = '';
  for (const byte of Buffer.from(text, 'utf8'))
    encoded += /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return encoded;
}

function plainText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? '');
}

function parameterText(parameter: Parameter, prng: Prng, names: KnownNames): string {
  const roll = prng.next();
  if (roll < 0.55)
    return percentEncode(plainText(plausibleValue(parameter.schema, prng, names, parameter.name)));
  if (roll < 0.7) return prng.pick(MALFORMED_PERCENT);
  if (roll < 0.85)
    return parameter.in === 'path'
      ? prng.pick(HOSTILE_SEGMENTS)
      : percentEncode(prng.pick(HOSTILE_NUMBER_TEXTS));
  return percentEncode(prng.pick(HOSTILE_STRINGS));
}

function pathOf(operation: Operation, prng: Prng, names: KnownNames): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const parameter = operation.parameters.find((candidate) => candidate.name === name);
    if (name === 'path') return prng.pick(['', 'a/b', '..%2f..', '%ff', 'x?y']);
    return parameter === undefined ? 'x' : parameterText(parameter, prng, names);
  });
}

function queryOf(operation: Operation, prng: Prng, names: KnownNames): string {
  const parts: string[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'query') continue;
    if (!parameter.required && prng.chance(0.4)) continue;
    parts.push(`${parameter.name}=${parameterText(parameter, prng, names)}`);
  }
  if (prng.chance(0.15))
    parts.push(`${prng.pick(MALFORMED_PERCENT)}=${prng.pick(MALFORMED_PERCENT)}`);
  if (prng.chance(0.05)) parts.push(`x=${'a'.repeat(prng.pick([1_000, 20_000]))}`);
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/** Plan one request for `operation`. */
export function planRequest(
  operation: Operation,
  prng: Prng,
  names: KnownNames,
  token: string,
  options: { readonly heavy: boolean },
): PlannedRequest {
  const body = bodyCase(operation.body, prng, names, options);
  const who = prng.next();
  const requestToken = who < 0.85 ? token : who < 0.93 ? undefined : prng.pick(names.tokenLike);
  const target = `${pathOf(operation, prng, names)}${queryOf(operation, prng, names)}`;
  return {
    raw: {
      method: operation.method,
      target,
      body: body?.bytes,
      contentType: body?.contentType,
      token: requestToken,
    },
    label: `${operation.method} ${target.slice(0, 160)}`,
    kind: body?.kind ?? 'no-body',
  };
}
