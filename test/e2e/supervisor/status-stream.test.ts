import test from 'ava';
import { openSocket, request } from '../../helpers/http.js';
import { fixtureBlock, program, startSupervisor } from './support.js';

interface Frame {
  type: string;
  running: string[];
  processes: { process_name: string; status: string; pid: number | null }[];
}

test('/ws/status sends a frame on connect, on every change, and periodically', async (t) => {
  const host = await startSupervisor({
    app: fixtureBlock('App', program('long-running'), [], { enabled: false }),
  });
  t.teardown(() => host.stop());
  const socket = await openSocket(host.url, '/ws/status?interval=0.5');
  t.teardown(() => socket.close());
  const first = JSON.parse(await socket.next()) as Frame;
  t.is(first.type, 'status');
  t.deepEqual(first.running, ['stackd API']);
  t.like(first.processes[1], { process_name: 'App', status: 'stopped', pid: null });

  const started = request(host.url, '/process/start-service', { body: { process_name: 'App' } });
  const running = JSON.parse(
    await socket.next((message) => (JSON.parse(message) as Frame).running.includes('App')),
  ) as Frame;
  t.like(running.processes[1], { status: 'running' });
  t.is((await started).status, 200);
  await request(host.url, '/process/stop-service', { body: { process_name: 'App' } });
  await socket.next(
    (message) => (JSON.parse(message) as Frame).processes[1]?.status === 'stopping',
  );
  const count = socket.messages.length;
  // Nothing changes now: the next frames are periodic ones.
  await socket.next(() => socket.messages.length >= count + 2, 5_000);
  t.true(socket.messages.length >= count + 2);
});
