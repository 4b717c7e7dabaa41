/**
 * The calling thread's own CPU time. Node 20 has no thread CPU clock (`process.cpuUsage()` sums
 * every thread: V8's GC and compiler helpers, the thread pool), and `/proc/thread-self/schedstat`
 * only advances at scheduler ticks (every 4 ms at HZ=250) while the thread runs, so a 3 ms turn
 * could read 0 or 4 ms. WASI's `clock_time_get` with the thread CPU-time clock reads
 * `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, exact to the nanosecond, in about 1.5 µs: a
 * 112-byte WebAssembly module that calls it and returns the value.
 */

/** WASI's clock id for the calling thread's CPU time. */
const THREAD_CPUTIME_ID = 3;

const name = (text: string): number[] => [text.length, ...Buffer.from(text)];
const section = (id: number, bytes: readonly number[]): number[] => [id, bytes.length, ...bytes];

/**
 * `(import "wasi_snapshot_preview1" "clock_time_get" (func (param i32 i64 i32) (result i32)))`,
 * one page of memory, and `now() -> i64` that asks for the clock into address 0 and loads it.
 */
const MODULE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [2, 0x60, 3, 0x7f, 0x7e, 0x7f, 1, 0x7f, 0x60, 0, 1, 0x7e]),
  ...section(2, [1, ...name('wasi_snapshot_preview1'), ...name('clock_time_get'), 0, 0]),
  ...section(3, [1, 1]),
  ...section(5, [1, 0, 1]),
  ...section(7, [2, ...name('memory'), 2, 0, ...name('now'), 0, 1]),
  ...section(10, [
    ...[1, 16, 0],
    ...[0x41, THREAD_CPUTIME_ID, 0x42, 1, 0x41, 0, 0x10, 0, 0x1a],
    ...[0x41, 0, 0x29, 3, 0, 0x0b],
  ]),
]);

/** The part of the WebAssembly API used here (the compiler's libraries here leave it out). */
interface WebAssemblyApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (
    module: object,
    imports: object,
  ) => {
    readonly exports: Record<string, unknown>;
  };
}

/** A clock of the calling thread's CPU time in milliseconds. */
export type ThreadCpuClock = () => number;

/**
 * Make the clock. `node:wasi` announces itself as experimental once on import; the warning is
 * held back here, since a probe loaded into a host must not write to its output.
 */
export async function threadCpuClock(): Promise<ThreadCpuClock> {
  const emitWarning = Object.getOwnPropertyDescriptor(process, 'emitWarning');
  Object.defineProperty(process, 'emitWarning', { value: () => undefined, configurable: true });
  let WASI;
  try {
    ({ WASI } = await import('node:wasi'));
  } finally {
    if (emitWarning !== undefined) Object.defineProperty(process, 'emitWarning', emitWarning);
  }
  const wasi = new WASI({ version: 'preview1' });
  const wasm = (globalThis as unknown as { readonly WebAssembly: WebAssemblyApi }).WebAssembly;
  const instance = new wasm.Instance(new wasm.Module(MODULE), wasi.getImportObject());
  wasi.initialize(instance);
  const now = instance.exports.now as () => bigint;
  return () => Number(now()) / 1e6;
}
