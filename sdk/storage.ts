/** Files and SQLite databases under the plugin's own folder of the data dir (`data/<plugin>/`). */

/** A parameter value SQLite accepts. */
export type SqlValue = string | number | bigint | Uint8Array | null;
/** Positional (`?`) or named (`:name`) parameters. */
export type SqlParams = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;
/** One result row. */
export type SqlRow = Record<string, SqlValue>;

/** A SQLite database (node-sqlite3-wasm), closed by core at stop. Calls are synchronous. */
export interface Database {
  /** Run statements without results (schema migrations). */
  exec(sql: string): void;
  /** Run one statement; returns the changed row count and last insert id. */
  run(sql: string, params?: SqlParams): { changes: number; lastInsertRowid: number | bigint };
  /** All rows of a query. */
  all<T extends SqlRow = SqlRow>(sql: string, params?: SqlParams): T[];
  /** The first row of a query, or undefined. */
  get<T extends SqlRow = SqlRow>(sql: string, params?: SqlParams): T | undefined;
  /** Run `fn` in a transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(fn: () => T): T;
  /** Close now (core closes every database at stop anyway). */
  close(): void;
}

/** The plugin's storage folder. Every path is relative to it and may not escape it. */
export interface PluginStorage {
  /** Absolute path of `data/<plugin>/` (created on first use). */
  readonly dir: string;
  /** Absolute path of a file inside the folder. Throws when the path escapes it. */
  path(relative: string): string;
  /** Write a file atomically (temp file, fsync, rename): never half-written. */
  writeFileAtomic(
    relative: string,
    data: string | Uint8Array,
    options?: { mode?: number },
  ): Promise<void>;
  /** Read a file, or undefined when it does not exist. */
  readFile(relative: string): Promise<Buffer | undefined>;
  /** Read and parse a JSON file, or undefined when it does not exist. */
  readJson<T = unknown>(relative: string): Promise<T | undefined>;
  /** Write JSON atomically. */
  writeJsonAtomic(relative: string, value: unknown, options?: { mode?: number }): Promise<void>;
  /** Open (or create) a SQLite database file in the folder. */
  openDatabase(relative?: string): Database;
}
