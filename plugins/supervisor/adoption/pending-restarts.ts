/**
 * Restarts waiting out their backoff, on disk: a host that dies (or hands over) while a process
 * backs off leaves the due time here, and the next host resumes the backoff where it was instead
 * of restarting at once or forgetting the restart.
 */
import { readdir, rm } from 'node:fs/promises';
import type { PluginStorage } from '../../../sdk/index.js';

/** One process's pending restart. */
export interface PendingRestart {
  /** Epoch ms at which the restart is due. */
  readonly due_at: number;
  /** The restart counter it had. */
  readonly restarts: number;
  /** The state's reason while it waits. */
  readonly reason: string;
}

const DIR = 'pending-restarts';

function fileOf(processName: string): string {
  return `${DIR}/${encodeURIComponent(processName)}.json`;
}

/** The pending restarts of one data dir. */
export class PendingRestarts {
  /**
   * The files there are: the folder is listed once, then followed. Every start and stop drops
   * the process's pending restart, and almost always there is none: 1,000 restarts were 2,000
   * removals of files that did not exist.
   */
  private files: Promise<Set<string>> | undefined;

  constructor(private readonly storage: PluginStorage) {}

  private existing(): Promise<Set<string>> {
    this.files ??= readdir(this.storage.path(DIR)).then(
      (names) => new Set(names.map((name) => `${DIR}/${name}`)),
      () => new Set<string>(),
    );
    return this.files;
  }

  /** Record (or with null, drop) the pending restart of a process. */
  async set(processName: string, pending: PendingRestart | null): Promise<void> {
    const file = fileOf(processName);
    const files = await this.existing();
    try {
      if (pending === null) {
        if (!files.delete(file)) return;
        await rm(this.storage.path(file), { force: true });
      } else {
        files.add(file);
        await this.storage.writeJsonAtomic(file, pending);
      }
    } catch {
      // Best effort: without it the next host restarts the process at once instead.
    }
  }

  /** The pending restart a previous host left for a process, taken out. */
  async take(processName: string): Promise<PendingRestart | undefined> {
    const found = await this.storage
      .readJson<PendingRestart>(fileOf(processName))
      .catch(() => undefined);
    await this.set(processName, null);
    return found !== undefined && Number.isFinite(found.due_at) ? found : undefined;
  }
}
