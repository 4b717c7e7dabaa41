/**
 * The bundle of the whole stack (docs/original-product.md §14, in stackd's terms): a summary of who needs
 * attention, the process list, short log tails of the services that matter to the question,
 * the telling lines of their logs, each service's runtime metrics over the window, which sources
 * were available (and so how confident an answer can be), docs excerpts and change history.
 */
import {
  isoTime,
  listProcessEntries,
  type ProcessEntry,
  type ProcessSupervisor,
} from '../../../sdk/index.js';
import {
  logFindings,
  redactedBlock,
  scanWindow,
  scrubBundle,
  type Bundle,
  type BundleOptions,
  type BundleSources,
} from './bundle.js';
import { diagnosticWindow, runtimeMetrics } from './diagnostic-window.js';
import { PRODUCT_FACTS } from './product-facts.js';

const MAX_LOG_TARGETS = 12;
const WIDE_QUESTION = /performance|running|health|optimi[sz]|change/i;
const QUIET = new Set(['', 'unknown', 'none']);

interface ServiceRow {
  readonly process_name: string;
  readonly config_key: string;
  readonly enabled: boolean;
  readonly status: string;
  readonly healthy: boolean | null;
  readonly reason: string | null;
}

function rowsOf(entries: readonly ProcessEntry[], sources: BundleSources): ServiceRow[] {
  const supervisor = sources.supervisor();
  return entries.map((entry) => {
    const state = supervisor?.state(entry.process_name);
    const status = state?.status ?? 'unknown';
    return {
      process_name: entry.process_name,
      config_key: entry.config_key,
      enabled: entry.block.enabled !== false,
      status,
      // crashed or failed processes are the unhealthy ones the supervisor knows of
      healthy: state === undefined ? null : !['crashed', 'backoff'].includes(status),
      reason: state?.reason ?? null,
    };
  });
}

function summaryOf(rows: readonly ServiceRow[]) {
  const enabled = rows.filter((row) => row.enabled);
  const unhealthy = enabled.filter((row) => row.healthy === false).map((row) => row.process_name);
  const stopped = enabled.filter((row) => row.status === 'stopped').map((row) => row.process_name);
  const unknown = enabled.filter((row) => QUIET.has(row.status)).map((row) => row.process_name);
  return {
    counts: {
      total: rows.length,
      enabled: enabled.length,
      running: enabled.filter((row) => row.status === 'running').length,
      stopped: stopped.length,
      unhealthy: unhealthy.length,
      unknown: unknown.length,
    },
    attention: { unhealthy, stopped, unknown },
  };
}

/** Attention first, then the ones the question names, then (wide questions) the rest. */
function logTargets(rows: readonly ServiceRow[], question: string): string[] {
  const enabled = rows.filter((row) => row.enabled);
  const text = question.toLowerCase();
  const attention = enabled.filter(
    (row) => row.healthy === false || row.status === 'stopped' || QUIET.has(row.status),
  );
  const named = enabled.filter(
    (row) =>
      text.includes(row.process_name.toLowerCase()) || text.includes(row.config_key.toLowerCase()),
  );
  const rest = WIDE_QUESTION.test(question) ? enabled : [];
  return [...new Set([...attention, ...named, ...rest].map((row) => row.process_name))].slice(
    0,
    MAX_LOG_TARGETS,
  );
}

/**
 * The log tails and findings of the target services: the tail a quarter of max_log_chars
 * (500–8000 characters), the scan budget shared out between the targets.
 */
async function addLogs(
  bundle: Bundle,
  supervisor: ProcessSupervisor,
  targets: readonly string[],
  options: BundleOptions,
): Promise<void> {
  const tail = Math.min(8000, Math.max(500, Math.floor((options.max_log_chars ?? 12000) / 4)));
  const perService = Math.max(
    1,
    Math.floor((options.max_log_scan_mb ?? 8) / Math.max(1, targets.length)),
  );
  const logs: Record<string, string> = {};
  const analysis: Record<string, string[]> = {};
  for (const name of targets) {
    const file = supervisor.logFile(name);
    const text = file === null ? '' : await scanWindow(file, perService);
    logs[name] = text.slice(-tail);
    analysis[name] = logFindings(text).slice(-20);
  }
  bundle.logs = logs;
  bundle.log_analysis = analysis;
}

export async function stackBundle(sources: BundleSources, options: BundleOptions): Promise<Bundle> {
  const document = sources.document();
  const entries = listProcessEntries(document);
  const rows = rowsOf(entries, sources);
  const question = options.question ?? '';
  const changes = sources.history();
  const window = diagnosticWindow(options, changes);
  const bundle: Bundle = {
    generated_at: isoTime(),
    product: PRODUCT_FACTS,
    scope: 'stack',
    question,
    stack_summary: summaryOf(rows),
    diagnostic_window: window,
  };
  if (options.include_process_list !== false) bundle.processes = rows;
  // Full configs are large and rarely needed for a stack question: only when asked for.
  if (options.include_service_config === true)
    bundle.service_configs = Object.fromEntries(
      entries
        .filter((entry) => entry.block.enabled !== false)
        .map((entry) => [entry.process_name, redactedBlock(entry)]),
    );
  const targets = logTargets(rows, question);
  const supervisor = sources.supervisor();
  if (options.include_logs !== false && supervisor !== undefined)
    await addLogs(bundle, supervisor, targets, options);
  if (options.include_metrics !== false) {
    const read = sources.metricsHistory?.();
    const services: Record<string, unknown> = {};
    for (const row of rows.filter((item) => item.enabled))
      services[row.process_name] = await runtimeMetrics(read, window, row.process_name);
    bundle.runtime_metrics = { available: read !== undefined, services };
  }
  if (options.include_docs_context !== false && sources.docs !== undefined)
    bundle.docs_context = await sources.docs({ question }, options.max_docs_chars);
  if (options.include_change_history !== false) bundle.change_history = changes;
  bundle.diagnostic_coverage = coverageOf(bundle, targets.length);
  return scrubBundle(bundle, document);
}

/** Which sources the bundle could use; high with 4 or more, medium with 2 or 3, else low. */
function coverageOf(bundle: Bundle, logTargetCount: number) {
  const metrics = bundle.runtime_metrics as { available?: boolean } | undefined;
  const docs = bundle.docs_context as { available?: boolean } | undefined;
  const flags = {
    retained_log_services: bundle.logs === undefined ? 0 : logTargetCount,
    metrics_history: metrics?.available === true,
    change_history: Array.isArray(bundle.change_history) && bundle.change_history.length > 0,
    native_collectors: false,
    docs: docs?.available === true,
  };
  const present = Object.values(flags).filter(
    (value) => value === true || (typeof value === 'number' && value > 0),
  ).length;
  return {
    processes: Array.isArray(bundle.processes) ? bundle.processes.length : 0,
    ...flags,
    confidence_hint: present >= 4 ? 'high' : present >= 2 ? 'medium' : 'low',
  };
}

const cut = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max)}[TRUNCATED ${text.length - max} chars]`;

/**
 * The stack bundle as the provider sees it (secrets and bulk stay home): configs replaced by a note, lists
 * capped, logs and docs shortened; the response still carries the full bundle.
 */
export function compactStack(bundle: Bundle): Bundle {
  const compact: Bundle = { ...bundle };
  if ('service_configs' in compact) {
    delete compact.service_configs;
    compact.service_configs_note = 'Service configurations are in the full bundle, omitted here.';
  }
  if (Array.isArray(compact.processes)) compact.processes = compact.processes.slice(0, 30);
  const logs = compact.logs as Record<string, string> | undefined;
  if (logs !== undefined) {
    let budget = 1800;
    compact.logs = Object.fromEntries(
      Object.entries(logs).map(([name, text]) => {
        const kept = cut(text.slice(-Math.min(900, Math.max(0, budget))), 900);
        budget -= kept.length;
        return [name, kept];
      }),
    );
  }
  const docs = compact.docs_context as { sources?: Array<{ excerpt: string }> } | undefined;
  if (docs?.sources !== undefined) {
    let budget = 3500;
    compact.docs_context = {
      ...docs,
      sources: docs.sources.map((source) => {
        const excerpt = cut(source.excerpt, Math.min(900, Math.max(0, budget)));
        budget -= excerpt.length;
        return { ...source, excerpt };
      }),
    };
  }
  if (Array.isArray(compact.change_history))
    compact.change_history = compact.change_history.slice(0, 20);
  return compact;
}
