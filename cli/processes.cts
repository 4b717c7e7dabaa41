/** Reading the process list and picking processes by name, as the commands need them. */
import type { ProcessListBody, ProcessListEntry } from '../plugins/supervisor/schemas.js';
import type { ApiClient } from './api.cjs';
import { CliError, EXIT } from './errors.cjs';

export type { ProcessListEntry };

/** GET /process/processes. */
export async function listProcesses(api: ApiClient): Promise<ProcessListEntry[]> {
  const body = (await api.call('GET', '/process/processes')) as ProcessListBody;
  return body.processes;
}

/** Whether a name the user typed means this entry (process name, block name or key). */
function matches(entry: ProcessListEntry, name: string): boolean {
  const wanted = name.toLowerCase();
  return [entry.process_name, entry.name, entry.config_key, entry.key].some(
    (candidate) => candidate.toLowerCase() === wanted,
  );
}

/** The entries the names mean, in the order given; an unknown name is a failed action. */
export function pickProcesses(
  entries: readonly ProcessListEntry[],
  names: readonly string[],
): ProcessListEntry[] {
  if (names.length === 0) return [...entries];
  return names.map((name) => {
    const entry = entries.find((candidate) => matches(candidate, name));
    if (entry === undefined)
      throw new CliError(
        `no process named '${name}' — see \`stackd status\` for the names`,
        EXIT.failed,
      );
    return entry;
  });
}

/** The port of a block, when it has a numeric one. */
export function portOf(entry: ProcessListEntry): number | undefined {
  const port = entry.config.port;
  return typeof port === 'number' ? port : undefined;
}

/** The API's own entry (`stackd.api_service`): --all never stops or restarts it. */
export function isSelf(entry: ProcessListEntry): boolean {
  return entry.config_key === 'stackd_api_service';
}
