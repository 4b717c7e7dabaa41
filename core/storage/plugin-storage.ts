/** The sdk's `PluginStorage`: a plugin's own folder under the data dir, and its databases. */
import { chmodSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Database, PluginStorage } from '../../sdk/storage.js';
import { writeFileAtomic } from '../../sdk/atomic-file.js';
import { openSqlite } from './sqlite-store.js';

/** Storage of one plugin; databases opened through it are closed by {@link closeAll}. */
export class FolderStorage implements PluginStorage {
  readonly dir: string;
  private readonly databases: Database[] = [];
  private created = false;

  constructor(dataDir: string, pluginName: string) {
    this.dir = join(resolve(dataDir), pluginName);
  }

  path(relativePath: string): string {
    const target = resolve(this.dir, relativePath);
    const inside = relative(this.dir, target);
    if (inside.startsWith('..') || isAbsolute(inside)) {
      throw new Error(`path '${relativePath}' escapes the storage folder ${this.dir}`);
    }
    return target;
  }

  async writeFileAtomic(
    relativePath: string,
    data: string | Uint8Array,
    options: { mode?: number } = {},
  ): Promise<void> {
    await writeFileAtomic(this.path(relativePath), data, options);
  }

  async readFile(relativePath: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.path(relativePath));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async readJson<T = unknown>(relativePath: string): Promise<T | undefined> {
    const content = await this.readFile(relativePath);
    return content === undefined ? undefined : (JSON.parse(content.toString('utf8')) as T);
  }

  async writeJsonAtomic(
    relativePath: string,
    value: unknown,
    options: { mode?: number } = {},
  ): Promise<void> {
    await this.writeFileAtomic(relativePath, `${JSON.stringify(value, null, 2)}\n`, options);
  }

  openDatabase(relativePath = 'plugin.sqlite'): Database {
    this.ensureDir();
    const db = openSqlite(this.path(relativePath));
    this.databases.push(db);
    return db;
  }

  /** Close every database this storage opened. */
  closeAll(): void {
    for (const db of this.databases.splice(0)) {
      try {
        db.close();
      } catch {
        /* already closed by the plugin */
      }
    }
  }

  private ensureDir(): void {
    if (this.created) return;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // A folder made by an earlier version may be wider: the data dir is private (docs/decisions.md §26).
    chmodSync(this.dir, 0o700);
    this.created = true;
  }
}
