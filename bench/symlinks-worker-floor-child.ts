/**
 * The floor of the symlink scan with its thread crossing: the smallest Node program doing what
 * the scanner cannot skip once its walk runs off the main thread (the host's event loop must not
 * stall): the one-thread floor's loop (symlinks-floor-child.ts) in one worker thread, which hands
 * the links to the main thread in messages of 512 (path and target joined with NUL, the
 * scanner's wire form), and the main thread splits each message into its strings. No jobs, no
 * confinement, no wait meter, no object per link. Prints `{links, ms, cpuMs}`: `cpuMs` is the
 * process's user + system time (every thread) over the walk alone, the worker's start included,
 * as in the scanner's child.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const LINKS_PER_MESSAGE = 512;
const LIST = { withFileTypes: true, encoding: 'latin1' } as const;
const LATIN1 = { encoding: 'latin1' } as const;

/** The worker: walk `root`, post joined batches, then an empty string. */
function walk(root: string): void {
  const batch: string[] = [];
  const pending = [root];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const entry of readdirSync(dir, LIST)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        batch.push(path, readlinkSync(path, LATIN1));
        if (batch.length >= 2 * LINKS_PER_MESSAGE) {
          parentPort?.postMessage(batch.join('\0'));
          batch.length = 0;
        }
      } else if (entry.isDirectory()) pending.push(path);
    }
  }
  if (batch.length > 0) parentPort?.postMessage(batch.join('\0'));
  parentPort?.postMessage('');
}

async function main(root: string): Promise<void> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let links = 0;
  const worker = new Worker(new URL(import.meta.url), { workerData: root });
  await new Promise<void>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (joined: string) => {
      if (joined === '') resolve();
      else links += joined.split('\0').length / 2;
    });
  });
  await worker.terminate(); // as the scanner does before it returns
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  console.log(JSON.stringify({ links, ms, cpuMs: (cpu.user + cpu.system) / 1000 }));
}

if (isMainThread) await main(process.argv[2] ?? '');
else walk(workerData as string);
