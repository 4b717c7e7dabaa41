/** `stackd config get [PATH]`, `config set PATH VALUE [--persist]`, `config edit [--persist]`. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detailOf } from '../api.cjs';
import type { ClientContext } from '../context.cjs';
import { CliError, EXIT } from '../errors.cjs';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** "web.port" → ["web", "port"]; a usage error for an empty segment. */
export function splitPath(path: string): string[] {
  const parts = path.split('.');
  if (parts.some((part) => part === ''))
    throw new CliError(`invalid path '${path}': keys joined by dots, e.g. web.port`, EXIT.usage);
  return parts;
}

/** The value a command-line word means: JSON when it parses (8080, true, [..]), else text. */
export function parseValue(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}

/** `{a: {b: value}}` for path a.b. */
export function nestedUpdate(parts: readonly string[], value: Json): JsonObject {
  return parts.reduceRight<Json>((inner, key) => ({ [key]: inner }), value) as JsonObject;
}

/** What changed from `before` to `after`, as a deep-merge update; removed keys are listed. */
export function diffUpdate(
  before: JsonObject,
  after: JsonObject,
  path: string[] = [],
  removed: string[] = [],
): { updates: JsonObject; removed: string[] } {
  const updates: JsonObject = {};
  for (const [key, value] of Object.entries(after)) {
    const old = before[key];
    if (isObject(old) && isObject(value)) {
      const inner = diffUpdate(old, value, [...path, key], removed).updates;
      if (Object.keys(inner).length > 0) updates[key] = inner;
    } else if (JSON.stringify(old) !== JSON.stringify(value)) updates[key] = value;
  }
  for (const key of Object.keys(before))
    if (!(key in after)) removed.push([...path, key].join('.'));
  return { updates, removed };
}

async function readDocument(context: ClientContext): Promise<JsonObject> {
  return (await context.api.call('GET', '/config')) as JsonObject;
}

/** Run `config get`. */
export async function configGet(context: ClientContext, path: string | undefined): Promise<void> {
  let value: Json = await readDocument(context);
  for (const key of path === undefined ? [] : splitPath(path)) {
    if (!isObject(value) || !(key in value))
      throw new CliError(`no config key '${path}' — see \`stackd config get\``, EXIT.failed);
    value = value[key] as Json;
  }
  context.out(typeof value === 'string' ? `${value}\n` : `${JSON.stringify(value, null, 2)}\n`);
}

/** POST /config; the host's 422 message (naming the field) on a rejected update. */
async function sendUpdate(context: ClientContext, updates: JsonObject, persist: boolean) {
  const response = await context.api.request('POST', '/config', {
    body: { updates, persist },
  });
  if (response.status >= 200 && response.status < 300) return undefined;
  return `${detailOf(response)} (HTTP ${response.status})`;
}

/** Run `config set`. */
export async function configSet(
  context: ClientContext,
  path: string,
  text: string,
  persist: boolean,
): Promise<void> {
  const value = parseValue(text);
  const problem = await sendUpdate(context, nestedUpdate(splitPath(path), value), persist);
  if (problem !== undefined) throw new CliError(`config set ${path}: ${problem}`, EXIT.failed);
  context.out(
    `${path} = ${JSON.stringify(value)}${persist ? ' (saved to the config file)' : ' (in memory; --persist saves it)'}\n`,
  );
}

/** Run `config edit`: $EDITOR on the document until the host takes it or nothing changes. */
export async function configEdit(context: ClientContext, persist: boolean): Promise<void> {
  const original = await readDocument(context);
  const dir = mkdtempSync(join(tmpdir(), 'stackd-edit-'));
  const file = join(dir, 'stackd-config.json');
  let text = `${JSON.stringify(original, null, 2)}\n`;
  try {
    for (;;) {
      writeFileSync(file, text, { mode: 0o600 });
      openEditor(file);
      const edited = readFileSync(file, 'utf8');
      if (edited === text) {
        context.err(
          `${edited === `${JSON.stringify(original, null, 2)}\n` ? 'no change' : 'edit abandoned'}: nothing sent\n`,
        );
        if (edited !== `${JSON.stringify(original, null, 2)}\n`) process.exitCode = EXIT.failed;
        return;
      }
      text = edited;
      const problem = await checkAndSend(context, original, edited, persist);
      if (problem === undefined) {
        context.out(`configuration updated${persist ? ' and saved to the config file' : ''}\n`);
        return;
      }
      context.err(
        `${context.paint('red', 'rejected')}: ${problem} — reopening the editor (save unchanged to give up)\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function checkAndSend(
  context: ClientContext,
  original: JsonObject,
  edited: string,
  persist: boolean,
): Promise<string | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(edited);
  } catch (error) {
    return `not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (!isObject(parsed)) return 'the document must stay one JSON object';
  const { updates, removed } = diffUpdate(original, parsed);
  if (removed.length > 0)
    return `removing keys is not supported (${removed.join(', ')}); set "enabled": false instead`;
  if (Object.keys(updates).length === 0) return undefined;
  return sendUpdate(context, updates, persist);
}

function openEditor(file: string): void {
  const editor = process.env.VISUAL || process.env.EDITOR || 'vi';
  // The editor setting may carry arguments ("code --wait"): run it through the shell.
  const result = spawnSync(`${editor} "$STACKD_EDIT_FILE"`, {
    shell: true,
    stdio: 'inherit',
    env: { ...process.env, STACKD_EDIT_FILE: file },
  });
  if (result.status !== 0)
    throw new CliError(
      `the editor '${editor}' failed (exit ${result.status}); set $EDITOR`,
      EXIT.failed,
    );
}
