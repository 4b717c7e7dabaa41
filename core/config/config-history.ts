/**
 * Persisted versions of the configuration: one file per version in the data dir (written
 * atomically, so a crash leaves whole versions only), the newest `keep` kept. A version holds the
 * whole document (for rollback) and who changed what (for people).
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../sdk/atomic-file.js';
import {
  isJsonRecord,
  type ConfigFieldChange,
  type ConfigVersionSummary,
  type JsonRecord,
} from '../../sdk/config.js';
import { isoTime } from '../../sdk/iso-time.js';
import { diffDocuments } from '../../sdk/config-diff.js';

/** Versions kept when the configuration does not say (`stackd.config_history.keep`). */
export const DEFAULT_HISTORY_KEEP = 50;

const FILE_PATTERN = /^v(\d{8})\.json$/;

interface StoredVersion extends ConfigVersionSummary {
  readonly document: JsonRecord;
}

function fileName(version: number): string {
  return `v${String(version).padStart(8, '0')}.json`;
}

function isStoredVersion(value: unknown): value is StoredVersion {
  return (
    isJsonRecord(value) &&
    typeof value.version === 'number' &&
    typeof value.at === 'string' &&
    typeof value.actor === 'string' &&
    Array.isArray(value.diff) &&
    isJsonRecord(value.document)
  );
}

/** The version files of one host. */
export class ConfigHistory {
  private latestVersion: StoredVersion | null | undefined;
  /**
   * Summaries of the versions read so far, by number: a version file never changes once written,
   * and listing used to read and parse every kept file (each a whole document) on every call.
   */
  private readonly summaries = new Map<number, ConfigVersionSummary>();

  constructor(
    private readonly directory: string,
    private readonly keep: () => number,
  ) {}

  /** Version numbers on disk, oldest first. */
  private async versions(): Promise<number[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch {
      return [];
    }
    return names
      .map((name) => FILE_PATTERN.exec(name)?.[1])
      .filter((digits): digits is string => digits !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }

  private async load(version: number): Promise<StoredVersion | undefined> {
    try {
      const parsed: unknown = JSON.parse(
        await readFile(join(this.directory, fileName(version)), 'utf8'),
      );
      return isStoredVersion(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  /** The newest version, or null when none is kept. */
  async latest(): Promise<StoredVersion | null> {
    if (this.latestVersion !== undefined) return this.latestVersion;
    const versions = await this.versions();
    const newest = versions[versions.length - 1];
    this.latestVersion = newest === undefined ? null : ((await this.load(newest)) ?? null);
    return this.latestVersion;
  }

  /** Keep `document` as the next version; returns its number. */
  async record(document: JsonRecord, actor: string, reason: string | undefined): Promise<number> {
    const previous = await this.latest();
    const diff: ConfigFieldChange[] = diffDocuments(previous?.document ?? {}, document);
    const version = (previous?.version ?? 0) + 1;
    const stored: StoredVersion = {
      version,
      at: isoTime(new Date()),
      actor,
      reason: reason ?? null,
      diff,
      document,
    };
    await writeFileAtomic(join(this.directory, fileName(version)), `${JSON.stringify(stored)}\n`);
    this.latestVersion = stored;
    await this.prune();
    return version;
  }

  private async prune(): Promise<void> {
    const versions = await this.versions();
    const excess = versions.slice(0, Math.max(0, versions.length - Math.max(1, this.keep())));
    for (const version of excess)
      await rm(join(this.directory, fileName(version)), { force: true });
  }

  /** Every kept version without its document, newest first. */
  async list(): Promise<ConfigVersionSummary[]> {
    const versions = (await this.versions()).reverse();
    const kept = new Set(versions);
    for (const version of this.summaries.keys())
      if (!kept.has(version)) this.summaries.delete(version);
    const missing = versions.filter((version) => !this.summaries.has(version));
    const loaded = await Promise.all(missing.map((version) => this.load(version)));
    for (const stored of loaded) {
      if (stored === undefined) continue;
      const { version, at, actor, reason, diff } = stored;
      this.summaries.set(version, { version, at, actor, reason, diff });
    }
    return versions.flatMap((version) => {
      const summary = this.summaries.get(version);
      // Copies: callers get objects of their own, as when each list read the files.
      return summary === undefined ? [] : [{ ...summary, diff: [...summary.diff] }];
    });
  }

  /** One version's whole document, or undefined when it is not kept. */
  async document(version: number): Promise<JsonRecord | undefined> {
    return (await this.load(version))?.document;
  }
}

/** `stackd.config_history.keep` of the host section, else the default. */
export function historyKeep(hostSection: JsonRecord): number {
  const section = hostSection.config_history;
  const keep = isJsonRecord(section) ? section.keep : undefined;
  return typeof keep === 'number' && Number.isInteger(keep) && keep >= 1
    ? keep
    : DEFAULT_HISTORY_KEEP;
}
