/**
 * `stackd config history [VERSION]` and `stackd config rollback VERSION [--dry-run]`: the
 * persisted versions of the configuration, one version's redacted diff, and going back to one.
 */
import type {
  HistoryList,
  RollbackResult,
  VersionDetail,
} from '../../plugins/supervisor/config-model/config-change-schemas.js';
import type { Static } from '../../sdk/index.js';
import { detailOf } from '../api.cjs';
import type { ClientContext } from '../context.cjs';
import { CliError, EXIT } from '../errors.cjs';
import { table } from '../output.cjs';
import { diffLines, previewText } from '../plan-format.cjs';

type History = Static<typeof HistoryList>;
type Version = Static<typeof VersionDetail>;
type Rollback = Static<typeof RollbackResult>;

/** The paths column: the first few changed paths, then how many more. */
const PATHS_SHOWN = 4;

/** "2026-11-26T14:30:00.000Z" → "2026-11-26 15:30:00" in the local time zone. */
export function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (value: number): string => String(value).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

function pathsOf(version: History['versions'][number]): string {
  const paths = version.diff.map((change) => change.path);
  if (paths.length === 0) return '-';
  const more = paths.length - PATHS_SHOWN;
  return paths.slice(0, PATHS_SHOWN).join(', ') + (more > 0 ? ` (+${more} more)` : '');
}

/** A version the user typed: a whole number from 1. */
export function parseVersion(text: string): number {
  const version = Number(text);
  if (!Number.isInteger(version) || version < 1)
    throw new CliError(
      `invalid version '${text}': give a number from \`stackd config history\``,
      EXIT.usage,
    );
  return version;
}

function notKept(version: number): CliError {
  return new CliError(
    `version ${version} is not kept — see \`stackd config history\` for the versions`,
    EXIT.failed,
  );
}

/** Run `config history` (the table) or `config history VERSION` (its diff). */
export async function configHistory(
  context: ClientContext,
  versionText: string | undefined,
  json: boolean,
): Promise<void> {
  if (versionText !== undefined) {
    await showVersion(context, parseVersion(versionText), json);
    return;
  }
  const history = (await context.api.call('GET', '/config/history')) as History;
  if (json) {
    context.out(`${JSON.stringify(history, null, 2)}\n`);
    return;
  }
  if (history.versions.length === 0) {
    context.out('no versions yet: a change saved with --persist (or the file edited) makes one\n');
    return;
  }
  const { paint } = context;
  const rows = history.versions.map((version) => [
    String(version.version),
    localTime(version.at),
    version.actor,
    pathsOf(version) + (version.reason === null ? '' : paint('grey', ` — ${version.reason}`)),
  ]);
  const header = ['VERSION', 'WHEN', 'WHO', 'CHANGED'].map((cell) => paint('bold', cell));
  context.out(`${table([header, ...rows]).join('\n')}\n`);
}

async function showVersion(context: ClientContext, version: number, json: boolean) {
  const response = await context.api.request('GET', `/config/history/${version}`);
  if (response.status === 404) throw notKept(version);
  if (response.status !== 200)
    throw new CliError(`${detailOf(response)} (HTTP ${response.status})`, EXIT.failed);
  const detail = response.body as Version;
  if (json) {
    context.out(`${JSON.stringify(detail, null, 2)}\n`);
    return;
  }
  const { paint } = context;
  const why = detail.reason === null ? '' : ` — ${detail.reason}`;
  context.out(
    `${paint('bold', `version ${detail.version}`)}  ${localTime(detail.at)}  by ${detail.actor}${why}\n` +
      `${diffLines(detail.diff, paint).join('\n')}\n`,
  );
}

/** Run `config rollback VERSION [--dry-run]`. */
export async function configRollback(
  context: ClientContext,
  versionText: string,
  options: { dryRun: boolean; reason?: string },
): Promise<void> {
  const version = parseVersion(versionText);
  const response = await context.api.request('POST', '/config/rollback', {
    body: {
      version,
      dry_run: options.dryRun,
      ...(options.reason === undefined ? {} : { reason: options.reason }),
    },
    // A rollback restarts what changed and waits for it, like any applied change.
    timeoutMs: null,
  });
  if (response.status === 404) throw notKept(version);
  if (response.status !== 200)
    throw new CliError(
      `config rollback ${version}: ${detailOf(response)} (HTTP ${response.status})`,
      EXIT.failed,
    );
  const result = response.body as Rollback;
  const { paint } = context;
  const headline = options.dryRun
    ? paint('yellow', `dry run: rolling back to version ${version} would do this (nothing changed)`)
    : paint('green', `rolled back to version ${version} (saved as a new version)`);
  context.out(`${headline}\n${previewText(result.plan, paint)}\n`);
}
