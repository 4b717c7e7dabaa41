/**
 * SQLite databases through node-sqlite3-wasm (no native build, works on any Node 20). Wraps the
 * library behind the sdk's small `Database` interface so plugins never see the library.
 */
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type sqliteLibrary from 'node-sqlite3-wasm';
import type { Database, SqlParams, SqlRow, SqlValue } from '../../sdk/storage.js';

type LibraryParams = Parameters<sqliteLibrary.Database['run']>[1];

// Loaded on the first open, once for every plugin: a host whose plugins keep no database never
// compiles SQLite's WebAssembly (several MiB of resident memory).
let library: typeof sqliteLibrary | undefined;
const loadLibrary = (): typeof sqliteLibrary =>
  (library ??= createRequire(import.meta.url)('node-sqlite3-wasm') as typeof sqliteLibrary);

/** A statement parsed once and run many times: a hot path pays no SQL parse per run. */
export interface PreparedStatement {
  run(params: readonly SqlValue[]): { changes: number; lastInsertRowid: number | bigint };
  /** Free it (before the database closes). */
  finalize(): void;
}

/** A database as core's own stores see it: the sdk's interface plus prepared statements. */
export interface CoreDatabase extends Database {
  prepare(sql: string): PreparedStatement;
}

/**
 * Open (or create) a database file. The wasm VFS has no shared memory, so WAL is only available
 * to a connection that takes its lock for good (`PRAGMA locking_mode = EXCLUSIVE`), and that must
 * be said before the file is first read: `firstPragmas` run before anything else. Everyone else
 * uses a rollback journal.
 */
export function openSqlite(file: string, firstPragmas = ''): CoreDatabase {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // The wasm VFS locks with a `<file>.lock` directory; one left by a crashed host would make
  // every later open fail with SQLITE_BUSY. The data dir belongs to one host, so it is stale.
  rmSync(`${file}.lock`, { recursive: true, force: true });
  const db = new (loadLibrary().Database)(file);
  // The library creates the file with the default mode; databases hold users and secrets.
  chmodSync(file, 0o600);
  db.exec(`${firstPragmas} PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;`);
  return new SqliteDatabase(db);
}

class SqliteDatabase implements CoreDatabase {
  constructor(private readonly db: sqliteLibrary.Database) {}

  exec(sql: string): void {
    this.db.exec(sql);
  }

  run(sql: string, params?: SqlParams): { changes: number; lastInsertRowid: number | bigint } {
    const result = this.db.run(sql, toLibraryParams(params));
    return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
  }

  prepare(sql: string): PreparedStatement {
    const statement = this.db.prepare(sql);
    return {
      run: (params) => {
        const result = statement.run(toLibraryParams(params));
        return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
      },
      finalize: () => {
        if (statement.isFinalized) return;
        try {
          statement.finalize();
        } catch {
          // SQLite answers the last failed run's error again here; the statement is freed anyway
          // and that error was thrown by the run itself.
        }
      },
    };
  }

  all<T extends SqlRow = SqlRow>(sql: string, params?: SqlParams): T[] {
    return this.db.all(sql, toLibraryParams(params)) as T[];
  }

  get<T extends SqlRow = SqlRow>(sql: string, params?: SqlParams): T | undefined {
    return (this.db.get(sql, toLibraryParams(params)) as T | null) ?? undefined;
  }

  transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      // SQLite may have rolled back already (SQLITE_FULL does): the first error is the news.
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

function toLibraryParams(params: SqlParams | undefined): LibraryParams {
  if (params === undefined) return undefined;
  if (Array.isArray(params)) return [...(params as readonly unknown[])] as LibraryParams;
  return { ...params } as LibraryParams;
}
