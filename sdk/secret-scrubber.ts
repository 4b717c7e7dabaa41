/**
 * Known secret values, scrubbed from free text: the strings GET /config hides (secret keys,
 * headers, webhook URLs) and every value a process block puts in its environment. A program
 * (or its arguments, `--password VALUE`) that prints its API key bare (`ENVLEAK-5`, no `key=` in front) matches no text rule; its
 * value is known, so it is replaced wherever log text leaves a process or reaches disk, and in
 * AI bundles. Built once per configuration version: the log path runs one regex per batch.
 */
import type { JsonRecord } from './config.js';
import { redactArguments } from './argument-redaction.js';
import { listProcessEntries } from './process-blocks.js';
import { collectSecretValues, REDACTED } from './redaction.js';

/** Environment values that are not secrets whatever their length: numbers, booleans, paths. */
const PLAIN_VALUE = /^(?:[-+]?\d+(?:\.\d+)?|true|false|yes|no|on|off|\/[^\s]*)$/i;

/**
 * Every environment value of every process block, at least `minLength` characters long (each
 * line of a multi-line value on its own), numbers, booleans and absolute paths left out.
 */
export function environmentSecretValues(document: JsonRecord, minLength = 6): string[] {
  const values = new Set<string>();
  for (const entry of listProcessEntries(document)) {
    const env = entry.block.env;
    if (env === null || typeof env !== 'object' || Array.isArray(env)) continue;
    for (const value of Object.values(env)) {
      if (typeof value !== 'string') continue;
      for (const line of value.split(/\r?\n/))
        if (line.trim().length >= minLength && !PLAIN_VALUE.test(line.trim())) values.add(line);
    }
  }
  return [...values];
}

/** The values of secret flags in every process block's command array (`--password VALUE`). */
export function commandSecretValues(document: JsonRecord, minLength = 6): string[] {
  const values = new Set<string>();
  for (const entry of listProcessEntries(document)) {
    const command = entry.block.command;
    if (!Array.isArray(command)) continue;
    const shown = redactArguments(command);
    command.forEach((item: unknown, index) => {
      if (typeof item !== 'string' || shown[index] === item) return;
      const value = item.startsWith('-') ? item.slice(item.indexOf('=') + 1) : item;
      if (value.length >= minLength) values.add(value);
    });
  }
  return [...values];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces known secret values in text; one compiled pattern for all of them. */
export class SecretScrubber {
  private readonly pattern: RegExp | null;

  constructor(secrets: readonly string[]) {
    // Longest first: a value that contains another is replaced whole.
    const sorted = [...new Set(secrets)]
      .filter((secret) => secret !== '' && secret !== REDACTED && !/[\r\n]/.test(secret))
      .sort((a, b) => b.length - a.length);
    this.pattern = sorted.length === 0 ? null : new RegExp(sorted.map(escape).join('|'), 'g');
  }

  /** The scrubber of a configuration document (config secrets and environment values). */
  static of(document: JsonRecord, minLength = 6): SecretScrubber {
    return new SecretScrubber([
      ...collectSecretValues(document, minLength),
      ...environmentSecretValues(document, minLength),
      ...commandSecretValues(document, minLength),
    ]);
  }

  /** `text` with every known secret replaced by `[REDACTED]`. */
  scrub(text: string): string {
    if (this.pattern === null) return text;
    this.pattern.lastIndex = 0;
    if (!this.pattern.test(text)) return text;
    return text.replace(this.pattern, REDACTED);
  }

  /** Lines (without line breaks) scrubbed; the same array when none holds a secret. */
  scrubLines(lines: readonly string[]): readonly string[] {
    if (this.pattern === null) return lines;
    const joined = lines.join('\n');
    const scrubbed = this.scrub(joined);
    return scrubbed === joined ? lines : scrubbed.split('\n');
  }
}

/** A scrubber that knows no secret. */
export const NO_SECRETS = new SecretScrubber([]);
