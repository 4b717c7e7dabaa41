/**
 * `node dist/bench/memory-profile.js [SMALL] [LARGE]`: what one more supervised process costs the
 * host. Starts the real host (every plugin) twice, with SMALL (default 50) and LARGE (default
 * 1,000) running `sleep` processes and no client, waits for boot work to end, then reads its
 * memory (smaps_rollup) and takes a V8 heap snapshot (SIGWINCH, --heapsnapshot-signal). Prints a
 * JSON summary: RSS, anonymous and JS heap per extra process, and the heap's growth by object
 * kind (constructor or type) per extra process, largest first.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stopAll } from './lib/cleanup.js';
import { getJson, processBlocks, stopHost } from './lib/host.js';
import { smapsKiB } from './lib/proc-sample.js';
import { waitFor } from './lib/wait.js';
import { startHost, tempDir } from '../test/helpers/start-host.js';
import { track } from './lib/cleanup.js';

const small = Number(process.argv[2] ?? 50);
const large = Number(process.argv[3] ?? 1000);

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** Self size summed by object kind ("type:name", e.g. "object:ProcessRunner"). */
function heapByKind(file: string): Map<string, number> {
  const heap = JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot;
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const sizes = new Map<string, number>();
  for (let index = 0; index < heap.nodes.length; index += fields.length) {
    const type = types[heap.nodes[index + (typeAt ?? 0)] ?? 0] ?? '?';
    // Strings and code are grouped by type: their names are their contents.
    const name =
      type === 'object' || type === 'closure' || type === 'native'
        ? (heap.strings[heap.nodes[index + (nameAt ?? 1)] ?? 0] ?? '?')
        : '';
    const kind = `${type}:${name}`;
    sizes.set(kind, (sizes.get(kind) ?? 0) + (heap.nodes[index + (sizeAt ?? 3)] ?? 0));
  }
  return sizes;
}

/** Wait until a file being written stops growing (the snapshot is written in many chunks). */
async function fileSettled(file: string): Promise<void> {
  let size = -1;
  for (;;) {
    await sleep(2000);
    const now = statSync(file).size;
    if (now === size && now > 0) return;
    size = now;
  }
}

async function measure(
  count: number,
): Promise<{ memory: ReturnType<typeof smapsKiB>; heap: Map<string, number>; heapTotal: number }> {
  const dir = tempDir('stackd-memory-profile-');
  const host = await startHost({
    config: processBlocks(count, { enabled: true, command: ['sleep', '86400'] }),
    env: {
      STACKD_VALIDATE_RESPONSES: '0',
      NODE_OPTIONS: `--heapsnapshot-signal=SIGWINCH --diagnostic-dir=${dir}`,
    },
    bootTimeoutMs: 120_000,
  });
  track(host.child.pid, 'stackd host');
  try {
    await waitFor(
      () => getJson<{ processes: { status: string }[] }>(host, '/process/processes'),
      (list) => list.processes.filter((entry) => entry.status === 'running').length === count,
      900_000,
      1000,
    );
    await sleep(20_000); // boot work over: start checks, first history rows, lazy allocations
    const pid = host.child.pid ?? Number.NaN;
    const memory = smapsKiB(pid);
    const before = new Set(readdirSync(dir));
    process.kill(pid, 'SIGWINCH');
    const file = await waitFor(
      () =>
        Promise.resolve(
          readdirSync(dir).find((name) => name.endsWith('.heapsnapshot') && !before.has(name)),
        ),
      (found) => found !== undefined,
      120_000,
      1000,
    );
    await fileSettled(join(dir, file ?? ''));
    const heap = heapByKind(join(dir, file ?? ''));
    const heapTotal = [...heap.values()].reduce((sum, size) => sum + size, 0);
    return { memory, heap, heapTotal };
  } finally {
    await stopHost(host);
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  const low = await measure(small);
  const high = await measure(large);
  const extra = large - small;
  const perProcess = (a: number, b: number): number => Math.round(((b - a) / extra) * 10) / 10;
  const kinds = new Set([...low.heap.keys(), ...high.heap.keys()]);
  const growth = [...kinds]
    .map(
      (kind) => [kind, ((high.heap.get(kind) ?? 0) - (low.heap.get(kind) ?? 0)) / extra] as const,
    )
    .filter(([, bytes]) => Math.abs(bytes) >= 16)
    .sort((a, b) => b[1] - a[1]);
  process.stdout.write(
    `${JSON.stringify(
      {
        sizes: [small, large],
        rss_kib: [low.memory.rss, high.memory.rss],
        private_kib: [low.memory.private, high.memory.private],
        rss_kib_per_process: perProcess(low.memory.rss, high.memory.rss),
        private_kib_per_process: perProcess(low.memory.private, high.memory.private),
        heap_kib: [Math.round(low.heapTotal / 1024), Math.round(high.heapTotal / 1024)],
        heap_kib_per_process: perProcess(low.heapTotal / 1024, high.heapTotal / 1024),
        heap_bytes_per_process_by_kind: Object.fromEntries(
          growth.slice(0, 40).map(([kind, bytes]) => [kind, Math.round(bytes)]),
        ),
      },
      null,
      2,
    )}\n`,
  );
} finally {
  await stopAll();
}
