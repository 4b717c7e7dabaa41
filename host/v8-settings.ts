/**
 * V8 settings the host applies to itself, imported first by the entry point so they hold before
 * any module compiles WebAssembly.
 *
 * `--liftoff-only`: SQLite (node-sqlite3-wasm: users, metrics history, jobs, deliveries, the AI
 * ledger) stays on V8's baseline WebAssembly compiler. Tiering its 1.2 MiB module up with
 * TurboFan costs 25–30 MiB of resident memory that glibc keeps afterwards, for queries that
 * here are few and small (measured: 50 processes, supervisor + auth, RSS 100.6 → 73.6 MiB).
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--liftoff-only');
