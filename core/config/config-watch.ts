/**
 * The configuration file watched while the host runs: an edit on disk is validated like any
 * change and applied (and recorded as a version), or refused with the reason logged and shown in
 * /health, the host keeping the last good document. The running configuration never silently
 * diverges from the file.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { HealthResult } from '../../sdk/context.js';
import type { Logger } from '../../sdk/logger.js';
import type { ConfigStore } from './config-store.js';

/** Edits arrive as bursts of events (an editor writes, renames, touches): act once they settle. */
const SETTLE_MS = 150;

/** Watches one file; `health()` reports the last refused edit until a good one arrives. */
export class ConfigFileWatch {
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private refusal: string | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: ConfigStore,
    private readonly path: string,
    private readonly logger: Logger,
  ) {}

  /** Watch the file's directory: editors and atomic writes replace the file (a new inode). */
  start(): void {
    const name = basename(this.path);
    try {
      this.watcher = watch(dirname(this.path), (_event, changed) => {
        if (changed === null || changed === name) this.schedule();
      });
      this.watcher.on('error', (error) =>
        this.logger.warn(`config watch stopped: ${error.message}`),
      );
    } catch (error) {
      this.logger.warn(
        `config: cannot watch ${this.path} (${String(error)}); edits on disk apply at the next start`,
      );
    }
  }

  stop(): void {
    clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = undefined;
  }

  health(): HealthResult {
    return this.refusal === null ? { healthy: true } : { healthy: false, details: this.refusal };
  }

  /** Resolves once the edits seen so far are handled (tests, shutdown). */
  settled(): Promise<void> {
    return this.running;
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.running.then(() => this.check());
    }, SETTLE_MS);
  }

  private async check(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      return; // mid-replace, or removed: the next event (or the next start) tells
    }
    try {
      const applied = await this.store.adoptFileText(text, { reason: 'edited on disk' });
      // Not applied means the file holds what runs already (an edit undone): nothing is refused.
      this.refusal = null;
      if (!applied) return;
      this.logger.info(`config: ${this.path} changed on disk; applied`);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.refusal = `edit of ${this.path} refused, running the last good version: ${why}`;
      this.logger.error(`config: ${this.refusal}`);
    }
  }
}
