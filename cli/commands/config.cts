/**
 * `stackd config get [PATH]`, `config set PATH VALUE [--persist] [--dry-run]`,
 * `config edit [--persist]`. Writes carry `If-Match` with the generation they read, so a change
 * made meanwhile by someone else is refused (412) instead of silently overwritten.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChangePreview } from '../../plugins/supervisor/config-model/config-change-schemas.js';
import { detailOf, type ApiResponse } from '../api.cjs';
import type { ClientContext } from '../context.cjs';
import { CliError, EXIT } from '../errors.cjs';
import { previewText } from '../plan-format.cjs';

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

/** The document and its ETag (the generation a later write names in If-Match). */
interface ReadDocument {
  readonly document: JsonObject;
  readonly etag: string | undefined;
}

async function readDocument(context: ClientContext): Promise<ReadDocument> {
  const response = await context.api.request('GET', '/config');
  if (response.status !== 200)
    throw new CliError(`${detailOf(response)} (HTTP ${response.status})`, EXIT.failed);
  return { document: response.body as JsonObject, etag: response.etag };
}

/** The generation a 412 names (body, else the ETag header). */
function currentGeneration(response: ApiResponse): string {
  const body = response.body;
  if (typeof body === 'object' && body !== null && 'generation' in body)
    return String(body.generation);
  return response.etag?.replace(/"/g, '') ?? 'newer';
}

/** Run `config get`. */
export async function configGet(context: ClientContext, path: string | undefined): Promise<void> {
  let value: Json = (await readDocument(context)).document;
  for (const key of path === undefined ? [] : splitPath(path)) {
    if (!isObject(value) || !(key in value))
      throw new CliError(`no config key '${path}' — see \`stackd config get\``, EXIT.failed);
    value = value[key] as Json;
  }
  context.out(typeof value === 'string' ? `${value}\n` : `${JSON.stringify(value, null, 2)}\n`);
}

/** What a write sends: the update, whether to save it, and the generation it was made against. */
interface Write {
  readonly updates: JsonObject;
  readonly persist: boolean;
  readonly etag: string | undefined;
}

/** POST /config; undefined when taken, else the host's message (422 names the field). */
async function sendUpdate(context: ClientContext, write: Write, stale: () => string) {
  const response = await context.api.request('POST', '/config', {
    body: { updates: write.updates, persist: write.persist },
    ...(write.etag === undefined ? {} : { headers: { 'if-match': write.etag } }),
  });
  if (response.status >= 200 && response.status < 300) return undefined;
  if (response.status === 412)
    throw new CliError(
      `the configuration changed on the host since it was read (now generation ${currentGeneration(response)}); ${stale()}`,
      EXIT.failed,
    );
  return `${detailOf(response)} (HTTP ${response.status})`;
}

/** Options of `config set`. */
export interface SetOptions {
  readonly persist: boolean;
  readonly dryRun: boolean;
}

/** Run `config set`: with --dry-run, the host's preview of the change; else the change. */
export async function configSet(
  context: ClientContext,
  path: string,
  text: string,
  options: SetOptions,
): Promise<void> {
  const value = parseValue(text);
  const updates = nestedUpdate(splitPath(path), value);
  if (options.dryRun) {
    const response = await context.api.request('POST', '/config/preview', {
      body: { updates, persist: options.persist },
    });
    if (response.status !== 200)
      throw new CliError(
        `config set ${path}: ${detailOf(response)} (HTTP ${response.status})`,
        EXIT.failed,
      );
    const headline = context.paint(
      'yellow',
      `dry run: ${path} = ${JSON.stringify(value)} would do this (nothing changed)`,
    );
    context.out(`${headline}\n${previewText(response.body as ChangePreview, context.paint)}\n`);
    return;
  }
  const { etag } = await readDocument(context);
  const problem = await sendUpdate(
    context,
    { updates, persist: options.persist, etag },
    () => 'run the command again to set it on the current configuration',
  );
  if (problem !== undefined) throw new CliError(`config set ${path}: ${problem}`, EXIT.failed);
  context.out(
    `${path} = ${JSON.stringify(value)}${options.persist ? ' (saved to the config file)' : ' (in memory; --persist saves it)'}\n`,
  );
}

/** Run `config edit`: $EDITOR on the document until the host takes it or nothing changes. */
export async function configEdit(context: ClientContext, persist: boolean): Promise<void> {
  const { document: original, etag } = await readDocument(context);
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
      const problem = await checkAndSend(context, { original, etag, edited, persist });
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

/** One round of `config edit`: what was read, what the editor left, where the edit is. */
interface EditRound {
  readonly original: JsonObject;
  readonly etag: string | undefined;
  readonly edited: string;
  readonly persist: boolean;
}

async function checkAndSend(context: ClientContext, round: EditRound): Promise<string | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(round.edited);
  } catch (error) {
    return `not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (!isObject(parsed)) return 'the document must stay one JSON object';
  const { updates, removed } = diffUpdate(round.original, parsed);
  if (removed.length > 0)
    return `removing keys is not supported (${removed.join(', ')}); set "enabled": false instead`;
  if (Object.keys(updates).length === 0) return undefined;
  return sendUpdate(
    context,
    { updates, persist: round.persist, etag: round.etag },
    () =>
      `your edit is kept in ${keepEdit(round.edited)}; run \`stackd config edit\` again and redo it there`,
  );
}

/** A copy of the edit that outlives the temporary directory (a 412 must not lose the work). */
function keepEdit(text: string): string {
  const kept = join(tmpdir(), `stackd-config-edit-${process.pid}.json`);
  writeFileSync(kept, text, { mode: 0o600 });
  return kept;
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
