/**
 * Builds the diagnostic bundle through sdk services only, then scrubs it: every secret value in
 * the document and every env value of a process block is removed before anything leaves.
 */
import { open } from 'node:fs/promises';
import {
  NotFoundError,
  collectSecretValues,
  findProcessEntry,
  isoTime,
  listProcessEntries,
  redactConfig,
  redactText,
  SecretScrubber,
  environmentSecretValues,
  type DependencyGraphService,
  type JsonRecord,
  type MetricsSnapshot,
  type ProcessEntry,
  type ProcessSupervisor,
} from '../../../sdk/index.js';
import type {
  MetricsHistoryPage,
  MetricsHistoryQuery,
} from '../../../sdk/contracts/metrics-feed.js';
import { diagnosticWindow, runtimeMetrics, type DiagnosticWindow } from './diagnostic-window.js';
import type { DocsContext } from './docs-context.js';
import { PRODUCT_FACTS } from './product-facts.js';
import type { LedgerEvent } from '../ledger.js';
import { PROCESS_NOT_FOUND } from '../errors.js';

/** What a diagnose request asks to include. */
export interface BundleOptions {
  readonly include_logs?: boolean;
  readonly include_service_config?: boolean;
  readonly include_process_list?: boolean;
  readonly include_change_history?: boolean;
  readonly include_metrics?: boolean;
  readonly include_docs_context?: boolean;
  readonly include_native_diagnostics?: boolean;
  readonly max_docs_chars?: number;
  readonly question?: string;
  readonly max_log_chars?: number;
  readonly max_log_scan_mb?: number;
  readonly window_hours?: number;
  readonly comparison?: string;
}

/** Where bundle facts come from. */
export interface BundleSources {
  readonly document: () => JsonRecord;
  readonly supervisor: () => ProcessSupervisor | undefined;
  /** Redacted change metadata from the ledger, newest first. */
  readonly history: () => readonly LedgerEvent[];
  /** The dependency graph, when its plugin is loaded. */
  readonly graph?: () => DependencyGraphService | undefined;
  /** The latest metrics snapshot, when metrics run. */
  readonly metrics?: () => MetricsSnapshot | null;
  /** Docs excerpts about a subject (local Markdown). */
  readonly docs?: (
    subject: { processName?: string; configKey?: string; question?: string | undefined },
    maxChars: number | undefined,
  ) => Promise<DocsContext>;
  /** Stored metrics history, when the metrics plugin runs. */
  readonly metricsHistory?: () =>
    ((query: MetricsHistoryQuery) => Promise<MetricsHistoryPage>) | undefined;
}

// Lines of a scanned log window that tell most: errors, exceptions, fatal states.
const FINDING = /\b(error|exception|fatal|panic|traceback|failed|denied|refused|timed? ?out)\b/i;
const MAX_FINDINGS = 40;

/** The telling lines of the whole scanned window (not only the tail sent as `logs`). */
export function logFindings(window: string): string[] {
  const found: string[] = [];
  for (const line of window.split('\n')) {
    if (!FINDING.test(line)) continue;
    found.push(line.slice(0, 500));
    if (found.length > MAX_FINDINGS) found.shift();
  }
  return found;
}

export type Bundle = Record<string, unknown>;

/** The last `maxScanMb` of a log (the deep scan window). */
export async function scanWindow(path: string, maxScanMb: number): Promise<string> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return '';
  try {
    const { size } = await handle.stat();
    const scan = Math.min(size, Math.max(1, maxScanMb) * 1024 * 1024);
    const buffer = Buffer.alloc(scan);
    await handle.read(buffer, 0, scan, size - scan);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** A process block as a bundle shows it: secrets redacted, the environment left out. */
export function redactedBlock(entry: ProcessEntry): JsonRecord {
  const rest = { ...entry.block };
  delete rest.env;
  return redactConfig(rest);
}

/**
 * Scrub every string of a bundle, one by one: redacting the serialized text instead could cut a
 * JSON string open (a header-like line is redacted to its end, closing quote included).
 */
export function scrubBundle(bundle: Bundle, document: JsonRecord): Bundle {
  // The log files' rule (known secret values), down to 4-character environment values here.
  const scrubber = new SecretScrubber([
    ...collectSecretValues(document),
    ...environmentSecretValues(document, 4),
  ]);
  const secrets = (text: string): string => scrubber.scrub(text);
  const scrub = (value: unknown): unknown => {
    if (typeof value === 'string') return redactText(secrets(redactText(value)));
    if (Array.isArray(value)) return value.map(scrub);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [redactText(secrets(key)), scrub(item)]),
      );
    return value;
  };
  return scrub(bundle) as Bundle;
}

/** The log tail, and the telling lines of the whole scanned window. */
async function addLogs(bundle: Bundle, file: string | null, options: BundleOptions): Promise<void> {
  const window = file === null ? '' : await scanWindow(file, options.max_log_scan_mb ?? 4);
  bundle.logs = window.slice(-(options.max_log_chars ?? 12000));
  // The deep scan: telling lines of the whole window, also those older than the tail.
  bundle.log_findings = logFindings(window);
}

/** The process's runtime dependency groups and latest metrics, when those plugins run. */
function addLiveContext(bundle: Bundle, sources: BundleSources, processName: string): void {
  const graph = sources.graph?.();
  if (graph !== undefined) {
    try {
      bundle.dependency_groups = graph.parallelGroups(processName, 'runtime');
    } catch {
      bundle.dependency_groups = [];
    }
  }
  const snapshot = sources.metrics?.() ?? null;
  if (snapshot !== null) {
    const processes = snapshot.collectors.processes as Record<string, unknown> | undefined;
    bundle.metrics = {
      at: snapshot.timestamp,
      process: processes?.[processName] ?? null,
      system: snapshot.collectors.system ?? null,
    };
  }
}

/** The optional parts the request did not switch off: docs, metrics history, changes, native. */
async function addOptionalParts(
  bundle: Bundle,
  sources: BundleSources,
  entry: ProcessEntry,
  options: BundleOptions,
  window: DiagnosticWindow,
): Promise<void> {
  if (options.include_docs_context !== false && sources.docs !== undefined)
    bundle.docs_context = await sources.docs(
      {
        processName: entry.process_name,
        configKey: entry.config_key,
        question: options.question,
      },
      options.max_docs_chars,
    );
  if (options.include_metrics !== false)
    bundle.runtime_metrics = await runtimeMetrics(
      sources.metricsHistory?.(),
      window,
      entry.process_name,
    );
  if (options.include_change_history !== false) bundle.change_history = sources.history();
  if (options.include_native_diagnostics !== false)
    bundle.native_diagnostics = {
      collector: entry.config_key,
      available: false,
      reason: 'No native collector for this service; the generic diagnostics above apply.',
    };
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
    throw new NotFoundError(PROCESS_NOT_FOUND, `Process not found: ${processName}`);
  const supervisor = sources.supervisor();
  const window = diagnosticWindow(options, sources.history());
  const bundle: Bundle = {
    generated_at: isoTime(),
    product: PRODUCT_FACTS,
    process_name: entry.process_name,
    config_key: entry.config_key,
    state: supervisor?.state(entry.process_name) ?? null,
    diagnostic_window: window,
  };
  if (options.include_service_config !== false) bundle.service_config = redactedBlock(entry);
  if (options.include_logs !== false)
    await addLogs(bundle, supervisor?.logFile(entry.process_name) ?? null, options);
  addLiveContext(bundle, sources, entry.process_name);
  await addOptionalParts(bundle, sources, entry, options, window);
  bundle.recommendations = recommendationsOf(bundle);
  bundle.diagnostic_coverage = processCoverageOf(bundle);
  return scrubBundle(bundle, document);
}

const ERROR_LINE = /\b(error|exception|fatal|panic|traceback)\b/i;

/** Review-only pointers from the bundle's own facts; nothing is applied automatically. */
function recommendationsOf(bundle: Bundle) {
  const review = { automatic_apply_supported: false, restart_required: false, risk: 'low' };
  const out: Array<Record<string, unknown>> = [];
  const findings = (bundle.log_findings as string[] | undefined) ?? [];
  const errors = findings.filter((line) => ERROR_LINE.test(line)).length;
  if (errors > 0)
    out.push({
      id: 'review-new-errors',
      summary: `${errors} error line(s) in the scanned logs: read them first.`,
      ...review,
    });
  const changes = (
    bundle.runtime_metrics as { changes?: { cpu_percent_average_percent?: number } } | undefined
  )?.changes;
  const cpu = changes?.cpu_percent_average_percent;
  if (cpu !== undefined && cpu >= 25)
    out.push({
      id: 'investigate-cpu-increase',
      summary: `Average CPU rose ${cpu} % against the baseline.`,
      ...review,
    });
  return out;
}

/** Which sources the bundle has; high with 5 or more, medium with 3 or 4, else low. */
function processCoverageOf(bundle: Bundle) {
  const flags = {
    status: true,
    config: bundle.service_config !== undefined,
    dependency_graph: bundle.dependency_groups !== undefined,
    retained_logs: typeof bundle.logs === 'string' && bundle.logs.length > 0,
    metrics_history:
      (bundle.runtime_metrics as { available?: boolean } | undefined)?.available === true,
    change_history: Array.isArray(bundle.change_history) && bundle.change_history.length > 0,
    native_collector: false,
    docs: (bundle.docs_context as { available?: boolean } | undefined)?.available === true,
  };
  const present = Object.entries(flags).filter(([key, value]) => key !== 'status' && value).length;
  return { ...flags, confidence_hint: present >= 5 ? 'high' : present >= 3 ? 'medium' : 'low' };
}

/** The bundle text given to a provider, compacted to a budget. */
export function compactForPrompt(bundle: Bundle, maxChars = 60000): string {
  const text = JSON.stringify(bundle, null, 1);
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}\n…[truncated]`;
}
