/**
 * V8 settings the host applies to itself. The entry point imports nothing else before them and
 * loads the program afterwards, so they hold before any of its modules is compiled and before
 * SQLite's WebAssembly is. Only flags V8 reads while running take effect this way (heap sizes
 * are fixed when the isolate is made, before any of our code runs).
 *
 * `--liftoff-only`: SQLite (node-sqlite3-wasm: users, metrics history, jobs, deliveries, the AI
 * ledger) stays on V8's baseline WebAssembly compiler. Tiering its 1.2 MiB module up with
 * TurboFan costs 25–30 MiB of resident memory that glibc keeps afterwards, for queries that
 * here are few and small (measured: 50 processes, supervisor + auth, RSS 100.6 → 73.6 MiB).
 *
 * `--semi-space-growth-factor=1`: the young generation keeps its initial size instead of
 * doubling up to 2 × 16 MiB in an allocation burst (a wave of 50 restarts) and holding it until
 * a memory-reducing GC long after. A supervisor's young objects are request-sized; scavenging a
 * small space more often costs little. Measured (every plugin, 50 processes, 50 concurrent
 * starts then restarts): RSS after the waves 105.5 → 95.2 MiB.
 *
 * `--no-parallel-scavenge` on two cores or fewer (a NAS, a small VPS): a scavenge then runs on
 * the main thread alone instead of waiting for V8's helper threads, which on such a machine
 * compete for the same cores as the host's own workers (a symlink scan) and its children, so a
 * young-generation pause stretched while a helper waited for a core. Measured on 2 cores (fresh
 * hosts, dry-run repair of 200,000 links, /health every 10 ms from another process, 20 hosts
 * each): max latency median 14.0 → 11.0 ms, worst 23.9 → 17.3 ms, and none above 20 ms
 * (2 before); under wrk load on /health the helper threads' CPU fell 950 → 220 ms per 4 s with
 * the main thread's +300 ms.
 */
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';

/**
 * Node's built-in modules every boot loads, loaded before the flags below change. Node compiles
 * a built-in module from the code cache built into its binary, and V8 takes a code cache only
 * when its flags hash as they did when the cache was made: after `--liftoff-only` or
 * `--semi-space-growth-factor=1`, every built-in module loaded is parsed and compiled from its
 * source instead (~40 M instructions of an adopting boot, a tenth of its main thread). So the
 * ones the boot needs anyway come first: `vm` (the bundle's loader on Node 20), `zlib` (its code
 * cache's check), `crypto` (the configuration's hash, launch markers, fingerprints), `net` (the
 * output FIFOs, piped stdio), `perf_hooks` (the global `performance`, first read when the first
 * request is answered: 4–6 M instructions fewer than parsing its 9 modules then), and the small
 * ones those load later.
 */
const BOOT_BUILTINS = [
  'node:vm',
  'node:zlib',
  'node:crypto',
  'node:net',
  'node:fs/promises',
  'node:timers/promises',
  'node:perf_hooks',
] as const;
for (const name of BOOT_BUILTINS) process.getBuiltinModule(name);

setFlagsFromString('--liftoff-only');
setFlagsFromString('--semi-space-growth-factor=1');
if (availableParallelism() <= 2) setFlagsFromString('--no-parallel-scavenge');
