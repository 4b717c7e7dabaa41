/**
 * Percent-decoding that reports malformed input instead of throwing: `%ff`, a cut `%E2%82` or an
 * encoded lone surrogate (`%ED%A0%80`) is the client's mistake, answered with 400.
 */

/** The decoded text, or null when the encoding is malformed. */
export function decodePercent(value: string): string | null {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** Whether every `%` sequence of a raw query string decodes to valid UTF-8. */
export function isWellFormedQuery(rawQuery: string): boolean {
  if (!rawQuery.includes('%')) return true;
  for (const part of rawQuery.split(/[&=]/)) {
    if (decodePercent(part.replace(/\+/g, ' ')) === null) return false;
  }
  return true;
}
