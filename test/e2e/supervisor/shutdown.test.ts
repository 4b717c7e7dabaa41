import test from 'ava';
import { join } from 'node:path';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { fixtureBlock, isAlive, program, readPid, startSupervisor } from './support.js';

test('host SIGTERM stops every child, stubborn ones and grandchildren too, and exits 0', async (t) => {
  const host = await startSupervisor({
    a: fixtureBlock('A', program('long-running'), ['--pid-file', 'a.pid']),
    b: fixtureBlock('B', program('ignores-sigterm'), ['--pid-file', 'b.pid'], { stop_timeout: 1 }),
    c: fixtureBlock('C', program('spawns-grandchild'), ['--pid-file', 'c-grandchild.pid']),
  });
  const pids = await Promise.all(
    ['a.pid', 'b.pid', 'c-grandchild.pid'].map((file) =>
      eventually(() => readPid(join(host.dataDir, file)), { what: file }),
    ),
  );
  await eventually(
    async () => {
      const { body } = await request(host.url, '/process/processes');
      return (body.processes as { status: string }[]).every((entry) => entry.status === 'running');
    },
    { what: 'all running' },
  );
  const list = await request(host.url, '/process/processes');
  const children = (list.body.processes as { pid: number }[]).slice(1).map((entry) => entry.pid);
  t.is(await host.stop('SIGTERM'), 0);
  for (const pid of [...pids, ...children]) t.false(isAlive(pid), `pid ${pid} is gone`);
  t.regex(host.output(), /SIGTERM received: stopping/);
});
