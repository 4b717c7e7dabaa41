/**
 * Child process of the benchmarks: GET `/health` every `interval` ms on one keep-alive connection
 * and, when the parent sends `stop` over IPC, answer with the latencies seen. In its own process
 * so what it measures is the host: the bench process's own garbage collection and its other work
 * (a repair's large answer) cannot add to a probe's time.
 */
import { Agent, get } from 'node:http';

const [url = '', intervalArg = '10'] = process.argv.slice(2);
const interval = Number(intervalArg);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const latencies: number[] = [];
let running = true;

function probeOnce(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    get(`${url}/health`, { agent }, (response) => {
      response.resume();
      response.once('end', () => {
        if (response.statusCode !== 200) reject(new Error(`/health: ${response.statusCode}`));
        else resolve(performance.now() - started);
      });
    }).once('error', reject);
  });
}

process.on('message', (message) => {
  if (message === 'stop') running = false;
});

await probeOnce(); // the connection is open and both sides warm before the parent goes on
process.send?.('ready');
while (running) {
  latencies.push(await probeOnce());
  await new Promise((resolve) => setTimeout(resolve, interval));
}
agent.destroy();
latencies.sort((a, b) => a - b);
process.send?.(
  {
    probes: latencies.length,
    maxMs: latencies.at(-1) ?? 0,
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
  },
  () => process.disconnect(),
);
