/**
 * What the process routes show of an entry (pure): the list-entry fields of the API, the block with
 * secrets redacted exactly as GET /config shows them (docs/decisions.md §16: the values of API keys,
 * tokens, passwords, secrets, webhooks and headers become "[REDACTED]", URL credentials `***`),
 * version and repository URLs, and the live state; and the descriptor the `supervisor.processes`
 * contract hands other plugins.
 */
import type { JsonRecord, ProcessDescriptor, ProcessState } from '../../../sdk/index.js';
import type { ProcessEntry } from '../../../sdk/index.js';
import { redactConfig } from '../../../sdk/index.js';
import type { ProcessListEntry, ServiceStatusBody, StatusFrame } from '../schemas.js';

const views = new WeakMap<ProcessEntry, JsonRecord>();

/** The block as clients see it: secrets redacted (shared by every request; do not mutate). */
export function blockView(entry: ProcessEntry): JsonRecord {
  // Entries live as long as their document, so each block is redacted once per config version.
  let view = views.get(entry);
  if (view === undefined) {
    view = redactConfig(entry.block, entry.path);
    views.set(entry, view);
  }
  return view;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The managed program's version: `version`, `release_version` or `pinned_version`, else "". */
export function versionOf(block: JsonRecord): string {
  for (const key of ['version', 'release_version', 'pinned_version']) {
    const value = block[key];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  return '';
}

/** `https://github.com/<repo_owner>/<repo_name>` when both are set, else `repo_url`, else "". */
export function repoUrlOf(block: JsonRecord): string {
  const owner = text(block.repo_owner).trim();
  const name = text(block.repo_name).trim();
  if (owner !== '' && name !== '') return `https://github.com/${owner}/${name}`;
  return text(block.repo_url);
}

/** Seconds since the state's start, while the process is up. */
export function uptimeSeconds(state: ProcessState, now = Date.now()): number | undefined {
  if (state.started_at === null || state.pid === null) return undefined;
  if (state.status !== 'running' && state.status !== 'stopping' && state.status !== 'starting')
    return undefined;
  return Math.max(0, Math.round((now - state.started_at) / 100) / 10);
}

/** Live figures of a list entry that do not come from the state machine. */
export interface ListExtras {
  /** The process tree's usage from the latest metrics sample, if any. */
  readonly usage: { readonly cpu_percent: number; readonly rss_bytes: number } | undefined;
  /** For the API's own entry: the port the host really listens on (`--port`, port 0 resolved). */
  readonly listenPort: number | null;
  readonly now: number;
}

function selfView(entry: ProcessEntry, listenPort: number | null): JsonRecord {
  const view = blockView(entry);
  return entry.self && listenPort !== null ? { ...view, port: listenPort } : view;
}

/** A process list entry (GET /process/processes). */
export function listEntry(
  entry: ProcessEntry,
  state: ProcessState,
  extras: ListExtras = { usage: undefined, listenPort: null, now: Date.now() },
): ProcessListEntry {
  const uptime = uptimeSeconds(state, extras.now);
  const up = uptime !== undefined;
  return {
    name: entry.name,
    process_name: entry.process_name,
    enabled: entry.self || entry.block.enabled === true,
    config: selfView(entry, extras.listenPort),
    version: versionOf(entry.block),
    key: entry.key,
    config_key: entry.config_key,
    repo_url: repoUrlOf(entry.block),
    sponsorship_url: text(entry.block.sponsorship_url),
    status: state.status,
    pid: state.pid,
    restarts: state.restarts,
    uptime_s: uptime ?? null,
    cpu_percent: up && extras.usage !== undefined ? extras.usage.cpu_percent : null,
    rss_bytes: up && extras.usage !== undefined ? extras.usage.rss_bytes : null,
  };
}

/** `service-status`: `{process_name, status, pid?, exit_code?, restarts, uptime_s?, reason?}`. */
export function statusBody(state: ProcessState): ServiceStatusBody {
  const uptime = uptimeSeconds(state);
  return {
    process_name: state.process_name,
    status: state.status,
    ...(state.pid === null ? {} : { pid: state.pid }),
    ...(state.exit_code === null ? {} : { exit_code: state.exit_code }),
    restarts: state.restarts,
    ...(uptime === undefined ? {} : { uptime_s: uptime }),
    ...(state.reason === null ? {} : { reason: state.reason }),
  };
}

/** The health fields the DUMB dashboard reads with `include_health=true`. */
export function healthFields(state: ProcessState) {
  const troubled = state.status === 'crashed' || state.status === 'backoff';
  const health = state.status === 'running' ? 'healthy' : troubled ? 'unhealthy' : 'stopped';
  return {
    healthy: health === 'healthy',
    health_status: health,
    health_reason: troubled ? state.reason : null,
    health_details: { status: state.status, restarts: state.restarts, exit_code: state.exit_code },
  };
}

/** A /ws/status frame from the live states. */
export function statusFrame(states: readonly ProcessState[], now = Date.now()): StatusFrame {
  return {
    type: 'status',
    running: states
      .filter((state) => state.status === 'running')
      .map((state) => state.process_name),
    processes: states.map((state) => {
      const uptime = uptimeSeconds(state, now);
      return {
        process_name: state.process_name,
        status: state.status,
        pid: state.pid,
        restarts: state.restarts,
        ...(uptime === undefined ? {} : { uptime_s: uptime }),
        ...(state.reason === null ? {} : { reason: state.reason }),
      };
    }),
  };
}

/** An entry as the `supervisor.processes` contract describes it (the block is a copy). */
export function descriptor(entry: ProcessEntry): ProcessDescriptor {
  return {
    process_name: entry.process_name,
    config_key: entry.config_key,
    instance_name: entry.instance_name,
    enabled: entry.block.enabled === true,
    block: structuredClone(entry.block),
  };
}
