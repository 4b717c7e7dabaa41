/**
 * A service's own config file: only the file its block declares (`config_file`, relative paths
 * against the data dir) is ever opened; no path comes from the request. Reads return the raw text
 * and the parsed structure; writes check the new text in its format first, keep the previous file
 * as `<file>.bak`, and replace the file atomically.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import {
  BadRequestError,
  InputError,
  NotFoundError,
  writeFileAtomic,
  type JsonRecord,
} from '../../../sdk/index.js';
import type { ServiceConfigFormat } from '../../../sdk/index.js';

import { checkFormat, formatOf, loadFormatParsers, parseFormat } from './config-formats.js';
import {
  SERVICE_CONFIG_FILE_NOT_FOUND,
  SERVICE_CONFIG_INVALID,
  SERVICE_CONFIG_NO_FILE,
  SERVICE_CONFIG_UNSUPPORTED_FORMAT,
} from '../errors.js';

/** The declared file of a block and its format. */
export interface ServiceConfigTarget {
  readonly path: string;
  readonly format: ServiceConfigFormat;
}

/** Where a block's config file is; 400 when it declares none or its format is unknown. */
export function configTarget(
  block: JsonRecord,
  dataDir: string,
  declaredFormat: ServiceConfigFormat | undefined,
): ServiceConfigTarget {
  const file = block.config_file;
  if (typeof file !== 'string' || file.trim() === '')
    throw new BadRequestError(SERVICE_CONFIG_NO_FILE, 'No config file path defined.', {
      field: 'service_name',
    });
  const path = isAbsolute(file) ? file : resolve(dataDir, file);
  const format = formatOf(path, declaredFormat);
  if (format === undefined)
    throw new BadRequestError(
      SERVICE_CONFIG_UNSUPPORTED_FORMAT,
      `Unsupported config file format: ${path}`,
      {
        field: 'service_name',
      },
    );
  return { path, format };
}

/** The file's text and parsed structure; 404 when it does not exist. */
export async function readServiceConfig(
  target: ServiceConfigTarget,
): Promise<{ raw: string; config?: unknown }> {
  let raw: string;
  try {
    raw = await readFile(target.path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new NotFoundError(SERVICE_CONFIG_FILE_NOT_FOUND, 'Config file not found.', {
        field: 'service_name',
      });
    throw error;
  }
  await loadFormatParsers();
  if (checkFormat(target.format, raw) !== null) return { raw };
  const config = parseFormat(target.format, raw);
  return config === undefined ? { raw } : { raw, config };
}

/** 422 naming the line when `content` is not valid in the target's format. */
export async function assertServiceConfig(
  target: ServiceConfigTarget,
  content: string,
): Promise<void> {
  await loadFormatParsers();
  const problem = checkFormat(target.format, content);
  if (problem !== null)
    throw new InputError(
      SERVICE_CONFIG_INVALID,
      `Invalid ${target.format} on line ${problem.line}: ${problem.message}`,
      { field: 'updates' },
    );
}

/** The file's current text, or null when it does not exist yet. */
export async function currentServiceConfig(target: ServiceConfigTarget): Promise<string | null> {
  return readFile(target.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}

/**
 * Replace the file with `content` once it checks out (422 naming the line otherwise, file
 * untouched). Returns the backup path, or null when there was no previous file.
 */
export async function writeServiceConfig(
  target: ServiceConfigTarget,
  content: string,
): Promise<string | null> {
  await assertServiceConfig(target, content);
  const previous = await readFile(target.path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  const backup = `${target.path}.bak`;
  if (previous !== null) await writeFileAtomic(backup, previous);
  await writeFileAtomic(target.path, content);
  return previous === null ? null : backup;
}
