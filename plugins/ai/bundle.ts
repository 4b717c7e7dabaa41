/**
 * Builds the diagnostic bundle through sdk services only, then scrubs it: every secret value in
 * the document and every env value of a process block is removed before anything leaves.
 */
import { open } from 'node:fs/promises';
import {
  NotFoundError,
  collectSecretValues,
  findProcessEntry,
  listProcessEntries,
  redactConfig,
  redactText,
  scrubSecrets,
  type JsonRecord,
  type ProcessSupervisor,
} from '../../sdk/index.js';
import type { LedgerEvent } from './ledger.js';

/** What a diagnose request asks to include. */
export interface BundleOptions {
  readonly include_logs?: boolean;
  readonly include_service_config?: boolean;
  readonly include_process_list?: boolean;
  readonly include_change_history?: boolean;
  readonly max_log_chars?: number;
  readonly max_log_scan_mb?: number;
}

/** Where bundle facts come from. */
export interface BundleSources {
  readonly document: () => JsonRecord;
  readonly supervisor: () => ProcessSupervisor | undefined;
  /** Redacted change metadata from the ledger, newest first. */
  readonly history: () => readonly LedgerEvent[];
}

export type Bundle = Record<string, unknown>;

async function tailOf(path: string, maxChars: number, maxScanMb: number): Promise<string> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return '';
  try {
    const { size } = await handle.stat();
    const scan = Math.min(size, Math.max(1, maxScanMb) * 1024 * 1024);
    const buffer = Buffer.alloc(scan);
    await handle.read(buffer, 0, scan, size - scan);
    return buffer.toString('utf8').slice(-maxChars);
  } finally {
    await handle.close();
  }
}

function envValues(document: JsonRecord): string[] {
  const values: string[] = [];
  for (const entry of listProcessEntries(document)) {
    const env = entry.block.env;
    if (env !== null && typeof env === 'object' && !Array.isArray(env))
      for (const value of Object.values(env))
        if (typeof value === 'string' && value.length >= 4) values.push(value);
  }
  return values;
}

/** Scrub every string of a bundle. */
export function scrubBundle(bundle: Bundle, document: JsonRecord): Bundle {
  const secrets = [...collectSecretValues(document), ...envValues(document)];
  return JSON.parse(scrubSecrets(redactText(JSON.stringify(bundle)), secrets)) as Bundle;
}

/** The bundle of one process. */
export async function processBundle(
  sources: BundleSources,
  processName: string,
  options: BundleOptions,
): Promise<Bundle> {
  const document = sources.document();
  const entry = findProcessEntry(listProcessEntries(document), processName);
  if (entry === undefined)
    throw new NotFoundError('PROCESS_NOT_FOUND', `Process not found: ${processName}`);
  const supervisor = sources.supervisor();
  const bundle: Bundle = {
    process_name: entry.process_name,
    config_key: entry.config_key,
    state: supervisor?.state(entry.process_name) ?? null,
  };
  if (options.include_service_config !== false) {
    const rest = { ...entry.block };
    delete rest.env;
    bundle.service_config = redactConfig(rest);
  }
  if (options.include_logs !== false) {
    const file = supervisor?.logFile(entry.process_name) ?? null;
    bundle.logs =
      file === null
        ? ''
        : await tailOf(file, options.max_log_chars ?? 12000, options.max_log_scan_mb ?? 4);
  }
  if (options.include_change_history !== false) bundle.change_history = sources.history();
  return scrubBundle(bundle, document);
}

/** The bundle of the whole stack. */
export function stackBundle(sources: BundleSources, options: BundleOptions): Bundle {
  const document = sources.document();
  const supervisor = sources.supervisor();
  const bundle: Bundle = {
    processes:
      options.include_process_list === false
        ? []
        : listProcessEntries(document).map((entry) => ({
            process_name: entry.process_name,
            config_key: entry.config_key,
            enabled: entry.block.enabled !== false,
            status: supervisor?.state(entry.process_name)?.status ?? 'unknown',
          })),
  };
  if (options.include_change_history !== false) bundle.change_history = sources.history();
  return scrubBundle(bundle, document);
}

/** The bundle text given to a provider, compacted to a budget. */
export function compactForPrompt(bundle: Bundle, maxChars = 60000): string {
  const text = JSON.stringify(bundle, null, 1);
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}\n…[truncated]`;
}
