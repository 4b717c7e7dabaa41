import test from 'ava';
import { Worker } from 'node:worker_threads';
import { threadCpuClock } from '../../bench/lib/thread-cpu.js';

const processCpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** Spin until the clock (this thread's CPU) advanced `ms`: CPU, not wall time, however loaded. */
function spinCpu(clock: () => number, ms: number): void {
  const start = clock();
  while (clock() - start < ms);
}

test('the thread clock counts this thread’s CPU, within what the process counts', async (t) => {
  const clock = await threadCpuClock();
  const thread = clock();
  const processed = processCpuMs();
  spinCpu(clock, 30);
  const threadSpent = clock() - thread;
  const processSpent = processCpuMs() - processed;
  t.true(threadSpent >= 30, `thread ${threadSpent} ms`);
  // Other threads can only add to the process's figure; a few µs for reading the clocks.
  t.true(processSpent >= threadSpent - 0.1, `process ${processSpent} ms, thread ${threadSpent} ms`);
});

test('work on another thread does not move this thread’s clock', async (t) => {
  const clock = await threadCpuClock();
  const thread = clock();
  const processed = processCpuMs();
  // The worker spins for 150 ms of its own CPU while this thread waits for it (asleep in epoll).
  const worker = new Worker(
    `const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
     const start = cpu(); while (cpu() - start < 150);`,
    { eval: true },
  );
  await new Promise((resolve) => worker.once('exit', resolve));
  const threadSpent = clock() - thread;
  const processSpent = processCpuMs() - processed;
  t.true(processSpent >= 150, `process ${processSpent} ms`);
  // Starting the worker and handling its exit costs this thread a little, far below its 150 ms.
  t.true(threadSpent < 75, `thread ${threadSpent} ms while the worker spun`);
});
