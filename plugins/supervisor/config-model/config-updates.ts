/**
 * POST /config as domain operations on the stack configuration: a process-scoped update (one
 * block, optionally persisted alone) and a global update (deep-merged into the document). Both
 * check the result before it is swapped in; a rejected update changes nothing, in memory or on
 * disk (the store validates before it writes, and writes atomically).
 */
import {
  isJsonRecord,
  ConflictError,
  InputError,
  isHttpError,
  NotFoundError,
  type ConfigUpdateOptions,
  type JsonRecord,
  type StackConfig,
} from '../../../sdk/index.js';
import { findProcessEntry, listProcessEntries, type ProcessEntry } from '../../../sdk/index.js';
import { deepMerge } from './config-merge.js';
import { restoreSecrets } from '../../../sdk/index.js';
import { validateBlock, validateDocument, type ConfigFailure } from './config-validation.js';
import { writeViews } from './config-views.js';
import { CONFIG_CHANGED, CONFIG_INVALID, PROCESS_NOT_FOUND } from '../errors.js';

/** The answer of POST /config. */
export interface ConfigUpdateResult {
  readonly status: 'ok';
  readonly scope: 'process' | 'global';
  /** The process updated (its name before the update), or null for a global update. */
  readonly process_name: string | null;
  /** True when the change was written to the file. */
  readonly persisted: boolean;
  /** Keys updated: block keys (process scope) or top-level keys (global). */
  readonly keys: string[];
}

function blockAt(document: JsonRecord, path: readonly string[]): JsonRecord | undefined {
  let current: unknown = document;
  for (const key of path) current = isJsonRecord(current) ? current[key] : undefined;
  return isJsonRecord(current) ? current : undefined;
}

function rejection(field: string, message: string): InputError {
  return new InputError(CONFIG_INVALID, `Invalid configuration at '${field}': ${message}`, {
    field,
  });
}

/**
 * A failure inside the updated block named as a request field (`updates.port`) when the update
 * touched that key; otherwise by its place in the document (a stored value was already invalid).
 */
function blockFailure(
  failure: ConfigFailure,
  entry: ProcessEntry,
  updates: JsonRecord,
): InputError {
  const [first] = failure.path;
  const touched = first === undefined || first in updates;
  const field = touched
    ? ['updates', ...failure.path].join('.')
    : [...entry.path, ...failure.path].join('.');
  return rejection(field, failure.message);
}

/** Find a process by the name a request gives (404 when unknown). */
export function findEntryOrThrow(document: JsonRecord, processName: string): ProcessEntry {
  const entry = findProcessEntry(listProcessEntries(document), processName);
  if (entry === undefined)
    throw new NotFoundError(PROCESS_NOT_FOUND, `Process '${processName}' not found`, {
      field: 'process_name',
    });
  return entry;
}

/** A POST /config body turned into a store mutation: run by update (apply) or preview. */
export interface PreparedUpdate {
  readonly mutate: (draft: JsonRecord) => void;
  readonly options: ConfigUpdateOptions;
  readonly result: ConfigUpdateResult;
  /** The process's name after the update (a rename changes it), for process-scoped updates. */
  newName(): string | null;
  /** The store's error named as a request field where the update touched it. */
  renameError(error: unknown): unknown;
}

/** The body of POST /config (and of its preview). */
export interface UpdateRequest {
  readonly process_name?: string | undefined;
  readonly updates: JsonRecord;
  readonly persist: boolean;
}

/** Prepare a POST /config body: a process-scoped or a global update. */
export function prepareUpdate(stack: StackConfig, request: UpdateRequest): PreparedUpdate {
  return request.process_name === undefined
    ? prepareDocumentUpdate(stack, request)
    : prepareBlockUpdate(stack, { ...request, processName: request.process_name });
}

/** Update one process block (keys replace the block's keys; secrets echoed back are kept). */
function prepareBlockUpdate(
  stack: StackConfig,
  request: { processName: string; updates: JsonRecord; persist: boolean },
): PreparedUpdate {
  const entry = findEntryOrThrow(stack.read(), request.processName);
  let newName = entry.process_name;
  const mutate = (draft: JsonRecord): void => {
    const current = blockAt(draft, entry.path);
    if (current === undefined || current.process_name !== entry.process_name)
      throw new ConflictError(CONFIG_CHANGED, `Process '${entry.process_name}' changed meanwhile`);
    const restored = restoreSecrets(request.updates, current, entry.path) as JsonRecord;
    const merged = { ...current, ...restored };
    const [failure] = validateBlock(merged, entry.self, 1);
    if (failure !== undefined) throw blockFailure(failure, entry, request.updates);
    if (merged.process_name !== entry.process_name) {
      const owner = listProcessEntries(draft).find(
        (other) => other.process_name === merged.process_name,
      );
      if (owner !== undefined)
        throw rejection(
          'updates.process_name',
          `process_name '${owner.process_name}' is already used by ${owner.path.join('.')}`,
        );
    }
    Object.assign(current, restored);
    if (typeof current.process_name === 'string') newName = current.process_name;
  };
  return {
    mutate,
    options: request.persist
      ? { persist: entry.path, reason: 'POST /config' }
      : { reason: 'POST /config' },
    result: {
      status: 'ok',
      scope: 'process',
      process_name: entry.process_name,
      persisted: request.persist,
      keys: Object.keys(request.updates),
    },
    newName: () => newName,
    renameError: (error) => renameDocumentField(error, entry.path, request.updates),
  };
}

/** Deep-merge a global update into the document, then validate the whole of it. */
function prepareDocumentUpdate(stack: StackConfig, request: UpdateRequest): PreparedUpdate {
  const mutate = (draft: JsonRecord): void => {
    // A view's path (a client's layout of a plugin slice) is written through the view.
    const rest = writeViews(draft, request.updates, stack.views());
    deepMerge(draft, restoreSecrets(rest, draft, []) as JsonRecord);
    const [failure] = validateDocument(draft, 1);
    if (failure !== undefined)
      throw rejection(['updates', ...failure.path].join('.'), failure.message);
  };
  return {
    mutate,
    options: request.persist
      ? { persist: true, reason: 'POST /config' }
      : { reason: 'POST /config' },
    result: {
      status: 'ok',
      scope: 'global',
      process_name: null,
      persisted: request.persist,
      keys: Object.keys(request.updates),
    },
    newName: () => null,
    renameError: (error) => error,
  };
}

/**
 * A validator of the store (another plugin's, or ours on the whole document) names fields from
 * the document root; a key of the updated block that the update touched is a request field
 * (`web.port` → `updates.port`).
 */
function renameDocumentField(
  error: unknown,
  blockPath: readonly string[],
  updates: JsonRecord,
): unknown {
  if (!isHttpError(error) || error.status !== 422 || error.field === undefined) return error;
  const blockField = `${blockPath.join('.')}.`;
  if (!error.field.startsWith(blockField)) return error;
  const relative = error.field.slice(blockField.length);
  const [first] = relative.split('.');
  if (first === undefined || !(first in updates)) return error;
  return new InputError(error.code, error.message, { field: `updates.${relative}`, cause: error });
}

/** Run a prepared update through the store (errors named as request fields). */
export async function applyPrepared(
  stack: StackConfig,
  prepared: PreparedUpdate,
  extra: ConfigUpdateOptions = {},
): Promise<ConfigUpdateResult> {
  try {
    await stack.update(prepared.mutate, { ...prepared.options, ...extra });
  } catch (error) {
    throw prepared.renameError(error);
  }
  return prepared.result;
}

/** What a prepared update would make of the document (validated), and the document before. */
export async function previewPrepared(
  stack: StackConfig,
  prepared: PreparedUpdate,
): Promise<{ previous: JsonRecord; candidate: JsonRecord }> {
  let previous: JsonRecord = {};
  try {
    const candidate = await stack.preview((draft) => {
      previous = structuredClone(draft);
      prepared.mutate(draft);
    });
    return { previous, candidate };
  } catch (error) {
    throw prepared.renameError(error);
  }
}

/** Update one process block, as POST /config with process_name does. */
export async function updateProcessBlock(
  stack: StackConfig,
  request: { processName: string; updates: JsonRecord; persist: boolean },
): Promise<{ result: ConfigUpdateResult; newName: string }> {
  const prepared = prepareBlockUpdate(stack, request);
  const result = await applyPrepared(stack, prepared);
  return { result, newName: prepared.newName() ?? request.processName };
}

/** Deep-merge a global update, as POST /config without process_name does. */
export function updateDocument(
  stack: StackConfig,
  request: { updates: JsonRecord; persist: boolean },
): Promise<ConfigUpdateResult> {
  return applyPrepared(stack, prepareDocumentUpdate(stack, request));
}
