/**
 * The journal's database file: opened with the pragmas its commits rely on, the statement every
 * commit runs prepared once, and closed back into a form any build can open.
 */
import { openSqlite, type CoreDatabase, type PreparedStatement } from '../storage/sqlite-store.js';
import { SCHEMA } from './journal-sql.js';

// Replay reads its pages whole; a larger page cache than SQLite's 2 MB keeps them from being
// read from the file again by the next reader.
const CACHE_KIB = 8192;

/**
 * Commits through a WAL, on a connection that holds its lock for good (`locking_mode` is said at
 * open, before the first read). The host is the file's only user, so the lock is taken once
 * instead of twice per commit (the wasm VFS locks by creating and removing a directory), and
 * with that lock WAL needs no shared memory, which the VFS lacks. A commit then appends its pages
 * to the WAL and syncs it once, instead of creating, syncing and deleting a rollback journal and
 * syncing the database: less than half the CPU per commit. FULL keeps that one sync per commit,
 * so a committed batch survives a power loss as before, not only a SIGKILL.
 */
const COMMIT_PRAGMAS = 'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;';
/** Back to a rollback journal at a clean close: any build can open the file afterwards. */
const CLOSE_PRAGMAS = 'PRAGMA journal_mode = DELETE;';

/** The open database and what is read from it once. */
export interface OpenJournal {
  readonly db: CoreDatabase;
  /** Prepared once: parsing an INSERT per batch cost more than the rows it inserted. */
  readonly insertEvent: PreparedStatement;
  /** The highest cursor ever given, as read at open (0 when nothing was ever recorded). */
  readonly head: number;
  /** The highest cursor retention removed, as read at open. */
  readonly prunedThrough: number;
}

/** Open (or create) the journal's file; nothing stays open when this throws. */
export function openJournalFile(file: string): OpenJournal {
  const db = openSqlite(file, 'PRAGMA locking_mode = EXCLUSIVE;');
  let insertEvent: PreparedStatement;
  try {
    db.exec(COMMIT_PRAGMAS);
    // One transaction: a new file's four statements commit (and sync) once, not four times in
    // the open's one turn of the event loop (docs/performance.md, "The repair's `/health` stall
    // after `drop_caches`"). On an existing file they change nothing and sync nothing.
    db.exec(`BEGIN; ${SCHEMA} COMMIT; PRAGMA cache_size = -${CACHE_KIB};`);
    insertEvent = db.prepare('INSERT INTO events (time, kind, subject, data) VALUES (?, ?, ?, ?)');
  } catch (error) {
    db.close();
    throw error;
  }
  const head =
    db.get<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'events'")?.seq ?? 0;
  const prunedThrough =
    db.get<{ value: number }>("SELECT value FROM journal_meta WHERE key = 'pruned_through'")
      ?.value ?? 0;
  return { db, insertEvent, head, prunedThrough };
}

/** Close the file, back in rollback-journal mode when it can be (else `onError` hears why). */
export function closeJournalFile(opened: OpenJournal, onError: (error: unknown) => void): void {
  opened.insertEvent.finalize();
  try {
    opened.db.exec(CLOSE_PRAGMAS);
  } catch (error) {
    // The file stays in WAL mode: still whole, and this build opens it again.
    onError(error);
  }
  opened.db.close();
}
