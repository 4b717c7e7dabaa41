/**
 * Plugins' views of the document (sdk ConfigView): shown by GET /config at their path, and the
 * part of a POST /config update at their path written through them.
 */
import { InputError, isJsonRecord, type ConfigView, type JsonRecord } from '../../../sdk/index.js';
import { CONFIG_INVALID } from '../errors.js';

/** The record at `path` inside `root`, created on the way when `create` is set. */
function recordAt(
  root: JsonRecord,
  path: readonly string[],
  create: boolean,
): JsonRecord | undefined {
  let node = root;
  for (const key of path) {
    const next = node[key];
    if (isJsonRecord(next)) node = next;
    else if (!create) return undefined;
    else node = node[key] = {};
  }
  return node;
}

/** Remove `path`'s records from the innermost out while they are empty. */
function dropEmptyParents(root: JsonRecord, path: readonly string[]): void {
  for (let depth = path.length; depth > 0; depth--) {
    const parent = recordAt(root, path.slice(0, depth - 1), false);
    const key = path[depth - 1] as string;
    const child = parent?.[key];
    if (parent === undefined || !isJsonRecord(child) || Object.keys(child).length > 0) return;
    delete parent[key];
  }
}

/** A copy of `document` with every view's reading placed at its path. */
export function withViews(document: JsonRecord, views: readonly ConfigView[]): JsonRecord {
  const shown: JsonRecord = structuredClone(document);
  for (const view of views) {
    const parent = recordAt(shown, view.path.slice(0, -1), true) as JsonRecord;
    parent[view.path[view.path.length - 1] as string] = view.read(document);
  }
  return shown;
}

/**
 * Take each view's part out of `updates` (a copy; the caller's object is left alone) and write it
 * into `draft` through the view, dropping whatever was stored at the view's path. Returns the
 * rest of the updates, to merge as usual.
 */
export function writeViews(
  draft: JsonRecord,
  updates: JsonRecord,
  views: readonly ConfigView[],
): JsonRecord {
  const rest: JsonRecord = structuredClone(updates);
  for (const view of views) {
    const parentPath = view.path.slice(0, -1);
    const key = view.path[view.path.length - 1] as string;
    const parent = recordAt(rest, parentPath, false);
    if (parent === undefined || parent[key] === undefined) continue;
    const update = parent[key];
    delete parent[key];
    dropEmptyParents(rest, parentPath);
    const field = ['updates', ...view.path].join('.');
    if (!isJsonRecord(update))
      throw new InputError(CONFIG_INVALID, `${field} must be an object`, { field });
    const stored = recordAt(draft, parentPath, false);
    if (stored !== undefined) delete stored[key];
    view.write(draft, update);
  }
  return rest;
}
