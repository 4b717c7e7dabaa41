/**
 * The hostile material the fuzzer draws from: strings, numbers, percent-encodings and raw bytes
 * that have broken HTTP servers before. Everything here is data; the generators pick from it.
 */
import { deepNesting, rawLeaf, type FuzzValue } from './json-text.js';
import type { Prng } from './prng.js';

/** How deep "deep nesting" goes (far past any sane limit; docs/decisions.md §24 names ~64). */
export const DEEP_NESTING_LEVELS = 3_000;
/** A string of about 1 MiB that still fits the 1 MiB body limit once quoted. */
export const HUGE_STRING_LENGTH = 1_000_000;
/** The host's default body limit (docs/api-conventions.md). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Strings that are valid JSON strings but unkind. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  'a',
  'x'.repeat(300),
  'x'.repeat(20_000),
  'Ünïcödé ✓ 日本語 🚀 עברית',
  '\u202eevil\u202d',
  'zero\u200bwidth',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'lone \udfff low',
  '\ud83d',
  '\uffff\ufffe',
  'line\r\nX-Injected: 1',
  '../../../../etc/passwd',
  '..',
  '.',
  '/',
  '%00',
  '%ff',
  '${jndi:ldap://127.0.0.1/x}',
  "'; DROP TABLE users; --",
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '1e308',
  'NaN',
  'Infinity',
  '-0',
  'true',
  'null',
  '{}',
  '[]',
  '{{port}}',
  '{process_name}',
  '*',
  '\\',
  '\t\n\v\f\r',
];

/** Numbers, as raw JSON text where JSON.stringify cannot write them. */
export function hostileNumber(prng: Prng): FuzzValue {
  return prng.pick<FuzzValue>([
    0,
    -1,
    1,
    0.5,
    2_147_483_648,
    Number.MAX_SAFE_INTEGER,
    1e308,
    -1e308,
    5e-324,
    rawLeaf('-0'),
    rawLeaf('1e400'),
    rawLeaf('-1e400'),
    rawLeaf('18446744073709551616'),
    rawLeaf('-9223372036854775809'),
    rawLeaf('1'.padEnd(400, '0')),
    rawLeaf('0.0000000000000000000000000000001e-400'),
    rawLeaf('1E+2'),
  ]);
}

/** Query-string numbers and not-quite-numbers, as text. */
export const HOSTILE_NUMBER_TEXTS: readonly string[] = [
  '1e308',
  '-1e308',
  '1e400',
  '-0',
  'NaN',
  'Infinity',
  '-Infinity',
  '18446744073709551616',
  '0x10',
  '1_000',
  '0.5',
  '-1',
  '',
  ' 1',
  '1 ',
  '9'.repeat(400),
];

/** Malformed or nasty percent-encodings, placed in paths and queries as they are. */
export const MALFORMED_PERCENT: readonly string[] = [
  '%ff',
  '%FF%FE',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%80',
  '%F4%90%80%80',
  '%',
  '%%',
  '%0',
  '%zz',
  '%00',
  '%2e%2e',
  '%2F',
  '%5C',
  '%0d%0a',
  '%u0041',
];

/** Path segments that look like names (filled in from what the host knows) or like attacks. */
export const HOSTILE_SEGMENTS: readonly string[] = [
  '..',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '.',
  '%20',
  '%00',
  'a%00b',
  '__proto__',
  'constructor',
  'x'.repeat(5_000),
  '%F0%9F%9A%80',
  '%E6%97%A5%E6%9C%AC',
  '%ED%A0%80',
  '%ff',
  '%E0%A4%A',
  'name%3Fq%3D1',
  'a%23b',
  '~',
  '-',
];

/** UTF-8 bytes no decoder should accept. */
export const INVALID_UTF8: readonly Buffer[] = [
  Buffer.from([0xff]),
  Buffer.from([0xfe, 0xff]),
  Buffer.from([0xc0, 0x80]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xe0, 0xa4]),
  Buffer.from([0x80, 0x80, 0x80]),
];

/** Text that is not JSON, or not quite. */
export const MALFORMED_JSON: readonly string[] = [
  '',
  '{',
  '}',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":undefined}',
  '{"a":1}/* comment */',
  '{"a":1}garbage',
  '{"a":1}{"a":2}',
  '[1,2',
  'nul',
  'tru',
  '"unterminated',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":"\\ud800"}',
  '\ufeff{}',
  '{"a" 1}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":{"b":2}}',
  '0',
  '-',
  '1e',
  '\u0000',
];

/** A deeply nested value: arrays or objects, 3,000 levels by default. */
export function deepValue(prng: Prng, depth = DEEP_NESTING_LEVELS): FuzzValue {
  return rawLeaf(deepNesting(depth, prng.chance(0.5) ? 'array' : 'object'));
}

/** A ~1 MiB string of one repeated character (ASCII or multi-byte). */
export function hugeString(prng: Prng): string {
  return prng.pick(['a', 'é', '日']).repeat(HUGE_STRING_LENGTH / 3);
}

/** Any hostile value: a type the field does not expect, or something worse. */
export function hostileValue(prng: Prng): FuzzValue {
  switch (prng.int(0, 9)) {
    case 0:
      return null;
    case 1:
      return prng.chance(0.5);
    case 2:
      return hostileNumber(prng);
    case 3:
      return [];
    case 4:
      return {};
    case 5:
      return [prng.pick(HOSTILE_STRINGS), hostileNumber(prng), null];
    case 6:
      return { nested: { deeper: prng.pick(HOSTILE_STRINGS) } };
    case 7:
      return deepValue(prng, prng.pick([100, 1_000, DEEP_NESTING_LEVELS]));
    default:
      return prng.pick(HOSTILE_STRINGS);
  }
}
