/**
 * What replacing a service's own config file would change, without writing it: the field-level
 * diff of the parsed structures (secrets as changed, never their values — these files hold API
 * keys) and the region of lines that differs. The service reads its file when it starts, so the
 * write alone restarts nothing; the answer says so. The same 422 as the write for invalid text.
 */
import { diffDocuments, type ConfigFieldChange } from '../../../sdk/index.js';
import { parseFormat } from './config-formats.js';
import {
  assertServiceConfig,
  currentServiceConfig,
  type ServiceConfigTarget,
} from './service-config-file.js';

/** The lines that differ, as one region (common leading and trailing lines left out). */
export interface ChangedLines {
  readonly old_lines: number;
  readonly new_lines: number;
  /** 1-based, in the new text; null when the texts are equal. */
  readonly first_changed: number | null;
  /** 1-based, in the new text (inclusive); null when equal or the change only removes lines. */
  readonly last_changed: number | null;
}

/** A dry run of a service-config write. */
export interface ServiceConfigPreview {
  readonly exists: boolean;
  readonly changed: boolean;
  /** Field-level changes; empty for formats without a structure (python) or equal texts. */
  readonly diff: ConfigFieldChange[];
  readonly lines: ChangedLines;
}

function splitLines(text: string): string[] {
  return text === '' ? [] : text.replace(/\r\n/g, '\n').split('\n');
}

/** The changed region between two texts (not a minimal diff: the span from first to last change). */
export function changedLines(before: string, after: string): ChangedLines {
  const old = splitLines(before);
  const next = splitLines(after);
  let head = 0;
  while (head < old.length && head < next.length && old[head] === next[head]) head += 1;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < next.length - head &&
    old[old.length - 1 - tail] === next[next.length - 1 - tail]
  )
    tail += 1;
  const equal = head === old.length && head === next.length;
  const lastInNew = next.length - tail;
  return {
    old_lines: old.length,
    new_lines: next.length,
    first_changed: equal ? null : head + 1,
    last_changed: equal || lastInNew <= head ? null : lastInNew,
  };
}

function structureOf(target: ServiceConfigTarget, text: string | null): unknown {
  if (text === null || target.format === 'python') return undefined;
  try {
    return parseFormat(target.format, text);
  } catch {
    return undefined; // a file already broken on disk: the line region still tells the change
  }
}

/** Check `content` like the write does, and tell what writing it would change. */
export async function previewServiceConfig(
  target: ServiceConfigTarget,
  content: string,
): Promise<ServiceConfigPreview> {
  await assertServiceConfig(target, content);
  const current = await currentServiceConfig(target);
  return {
    exists: current !== null,
    changed: current !== content,
    diff: diffDocuments(structureOf(target, current), structureOf(target, content)),
    lines: changedLines(current ?? '', content),
  };
}
