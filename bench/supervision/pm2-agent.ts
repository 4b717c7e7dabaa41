/**
 * The pm2 side of the supervision benchmark: a pm2 API client (PM2_HOME points at a temp dir, set
 * by the parent). `start` starts an ecosystem file of N apps and waits until pm2 lists all of
 * them online; `restart` is `pm2 restart all` until all are online with new PIDs; `stop` deletes
 * them and kills the daemon. The supervisor measured is pm2's daemon (PM2_HOME/pm2.pid).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pm2 from 'pm2';
import { serveAgent } from './agent-protocol.js';

const count = Number(process.argv[2] ?? 50);
const [program, ...args] = JSON.parse(process.argv[3] ?? '[]') as string[];
const home = process.env.PM2_HOME;
if (program === undefined || home === undefined)
  throw new Error('usage: PM2_HOME=DIR pm2-agent.js COUNT COMMAND_JSON');

const call = <T>(run: (callback: (error: Error | null, value: T) => void) => void): Promise<T> =>
  new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value))));

const onlinePids = async (): Promise<number[]> => {
  const list = await call<pm2.ProcessDescription[]>((done) => pm2.list(done));
  return list.flatMap((entry) =>
    entry.pm2_env?.status === 'online' && typeof entry.pid === 'number' && entry.pid > 0
      ? [entry.pid]
      : [],
  );
};

/** Poll pm2's list until `count` apps are online and `accept` holds for their PIDs. */
async function allOnline(accept: (pids: number[]) => boolean = () => true): Promise<number[]> {
  for (;;) {
    const pids = await onlinePids();
    if (pids.length === count && accept(pids)) return pids;
    await sleep(10);
  }
}

const daemonPid = (): number => Number(readFileSync(join(home, 'pm2.pid'), 'utf8').trim());

const ecosystem = join(home, 'ecosystem.json');
writeFileSync(
  ecosystem,
  JSON.stringify({
    apps: Array.from({ length: count }, (_, index) => ({
      name: `bench-${index}`,
      script: program,
      args,
      interpreter: 'none',
      autorestart: true,
    })),
  }),
);

await call<unknown>((done) => pm2.connect((error) => done(error, undefined)));
let pids: number[] = [];
serveAgent(daemonPid(), async ({ cmd }) => {
  const start = performance.now();
  if (cmd === 'start') {
    await call<unknown>((done) => pm2.start(ecosystem, done));
    pids = await allOnline();
  } else if (cmd === 'restart') {
    const before = new Set(pids);
    await call<unknown>((done) => pm2.restart('all', done));
    pids = await allOnline((now) => now.every((pid) => !before.has(pid)));
  } else {
    const daemon = daemonPid();
    await call<unknown>((done) => pm2.delete('all', done));
    await call<unknown>((done) => pm2.killDaemon(done));
    pm2.disconnect();
    return { ok: true, ms: performance.now() - start, pids: [], supervisor_pid: daemon };
  }
  return { ok: true, ms: performance.now() - start, pids, supervisor_pid: daemonPid() };
});
