/**
 * A port change leaves behind the processes that wait on the old port: their `wait_for_url` or
 * `wait_for_tcp` still names it, so after the change (and the restart the fan-out may give them)
 * they would wait for something nothing listens on any more, until their wait times out. The
 * plan names them so a preview shows it before anything happens (pure).
 */
import { listProcessEntries, type JsonRecord } from '../../../sdk/index.js';
import { parseWaits, describeUrl, type WaitItem } from '../waits/wait-specs.js';

/** Something a change is likely to break, though it is valid. */
export interface ChangeWarning {
  readonly process_name: string;
  /** Dotted path of the field at fault. */
  readonly field: string;
  readonly detail: string;
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0']);

function portOf(block: JsonRecord): number | undefined {
  const port = block.port;
  return typeof port === 'number' && Number.isInteger(port) ? port : undefined;
}

/** Old port → the process that moved off it, for ports nothing in `next` listens on any more. */
function abandonedPorts(previous: JsonRecord, next: JsonRecord): Map<number, string> {
  const nextPorts = new Set(listProcessEntries(next).map((entry) => portOf(entry.block)));
  const moved = new Map<number, string>();
  const after = new Map(listProcessEntries(next).map((entry) => [entry.process_name, entry]));
  for (const entry of listProcessEntries(previous)) {
    const oldPort = portOf(entry.block);
    const now = after.get(entry.process_name);
    if (oldPort === undefined || now === undefined || nextPorts.has(oldPort)) continue;
    if (portOf(now.block) !== oldPort) moved.set(oldPort, entry.process_name);
  }
  return moved;
}

/** The local port a wait probes, if it probes one. */
function localPortOf(item: WaitItem): { port: number; shown: string } | undefined {
  if (item.kind === 'tcp')
    return LOCAL_HOSTS.has(item.host)
      ? { port: item.port, shown: `${item.host}:${item.port}` }
      : undefined;
  if (item.kind !== 'url') return undefined;
  const url = new URL(item.url);
  if (!LOCAL_HOSTS.has(url.hostname)) return undefined;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { port, shown: describeUrl(item.url) };
}

function waitsOf(block: JsonRecord): WaitItem[] {
  try {
    // Only URL and TCP waits matter here; directories are resolved against nothing.
    return parseWaits({ wait_for_url: block.wait_for_url, wait_for_tcp: block.wait_for_tcp }, '/');
  } catch {
    return []; // an unparsable wait is the validation's to report, not this warning's
  }
}

/** Processes of `next` still waiting on a port that `previous → next` abandons. */
export function staleWaits(previous: JsonRecord, next: JsonRecord): ChangeWarning[] {
  const moved = abandonedPorts(previous, next);
  if (moved.size === 0) return [];
  const newPorts = new Map(
    listProcessEntries(next).map((entry) => [entry.process_name, portOf(entry.block)]),
  );
  const warnings: ChangeWarning[] = [];
  for (const entry of listProcessEntries(next)) {
    if (entry.self || entry.block.enabled !== true) continue;
    for (const item of waitsOf(entry.block)) {
      const probe = localPortOf(item);
      const owner = probe === undefined ? undefined : moved.get(probe.port);
      if (probe === undefined || owner === undefined) continue;
      const field = item.kind === 'tcp' ? 'wait_for_tcp' : 'wait_for_url';
      warnings.push({
        process_name: entry.process_name,
        field: [...entry.path, field].join('.'),
        detail:
          `waits for ${probe.shown}, the old port of ${owner} (now ${String(newPorts.get(owner))}); ` +
          `nothing listens there after this change, so its next start waits until its wait ` +
          `times out — change ${field} too`,
      });
    }
  }
  return warnings;
}
