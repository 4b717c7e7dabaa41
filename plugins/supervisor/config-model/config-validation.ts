/**
 * Validation of the configuration document: every process block against its block schema, and
 * process names unique. Used by the validator registered on `ctx.stack` (so every update anyone
 * makes is checked), by POST /config (to name the request field) and by POST /config/validate.
 */
import { isJsonRecord, checkValue, InputError, type JsonRecord } from '../../../sdk/index.js';
import { HOST_SECTION } from '../../../sdk/index.js';
import { ApiServiceBlock, looksLikeProcessBlock, ProcessBlock } from './block-schema.js';
import { CONFIG_INVALID } from '../errors.js';

/** One problem, with the field as a path from the document root. */
export interface ConfigFailure {
  readonly path: readonly string[];
  readonly message: string;
}

function fieldPath(base: readonly string[], relative: string): string[] {
  return relative === '' ? [...base] : [...base, ...relative.split('.')];
}

/** Failures of one block (paths relative to the block). */
export function validateBlock(block: unknown, self: boolean, limit = 20): ConfigFailure[] {
  return checkValue(self ? ApiServiceBlock : ProcessBlock, block, limit).map((failure) => ({
    path: fieldPath([], failure.field),
    message: failure.message,
  }));
}

/** Every block the document validates, with its path and whether it is the API service. */
function blocksOf(document: JsonRecord): Array<{ path: string[]; block: unknown; self: boolean }> {
  const blocks: Array<{ path: string[]; block: unknown; self: boolean }> = [];
  const host = document[HOST_SECTION];
  if (isJsonRecord(host) && host.api_service !== undefined)
    blocks.push({ path: [HOST_SECTION, 'api_service'], block: host.api_service, self: true });
  for (const [key, value] of Object.entries(document)) {
    if (key === HOST_SECTION || !isJsonRecord(value)) continue;
    if (isJsonRecord(value.instances)) {
      for (const [instance, block] of Object.entries(value.instances)) {
        if (isJsonRecord(block) && looksLikeProcessBlock(block))
          blocks.push({ path: [key, 'instances', instance], block, self: false });
      }
    } else if (looksLikeProcessBlock(value)) {
      blocks.push({ path: [key], block: value, self: false });
    }
  }
  return blocks;
}

/** Up to `limit` failures of the whole document; empty when it is valid. */
export function validateDocument(document: JsonRecord, limit = 50): ConfigFailure[] {
  const failures: ConfigFailure[] = [];
  const owners = new Map<string, string>();
  for (const { path, block, self } of blocksOf(document)) {
    for (const failure of validateBlock(block, self, limit - failures.length))
      failures.push({ path: [...path, ...failure.path], message: failure.message });
    if (failures.length >= limit) return failures;
    const name = isJsonRecord(block) ? block.process_name : undefined;
    if (typeof name !== 'string') continue;
    const owner = owners.get(name);
    if (owner !== undefined) {
      failures.push({
        path: [...path, 'process_name'],
        message: `process_name '${name}' is already used by ${owner}`,
      });
    } else {
      owners.set(name, path.join('.'));
    }
  }
  return failures;
}

/** The validator registered on `ctx.stack`: the first failure as a 422 naming the field. */
export function documentValidator(candidate: Readonly<JsonRecord>): void {
  const [first] = validateDocument(candidate, 1);
  if (first !== undefined) {
    const field = first.path.join('.');
    throw new InputError(CONFIG_INVALID, `Invalid configuration at '${field}': ${first.message}`, {
      field,
    });
  }
}
