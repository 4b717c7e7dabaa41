import test from 'ava';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { freePort } from '../../helpers/ports.js';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { fixtureBlock, program, serviceStatus, startSupervisor } from './support.js';

const GRAPH_PLUGIN = builtinPlugin('graph');

test('with the graph plugin, a dependent starts only once its dependency runs', async (t) => {
  const port = await freePort();
  const host = await startSupervisor(
    {
      db: fixtureBlock('DB', program('long-running'), ['--port', '{port}'], {
        port,
        wait_for_dir: 'db-ready',
      }),
      web: fixtureBlock('Web', program('long-running'), [], {
        wait_for_url: [`http://127.0.0.1:${port}/health`],
      }),
    },
    { plugins: [GRAPH_PLUGIN] },
  );
  t.teardown(() => host.stop());
  await eventually(async () => (await serviceStatus(host, 'DB')).reason?.includes('db-ready'), {
    what: 'DB waiting for its directory',
  });
  // Without the graph Web would be starting too (waiting for the URL); with it, it is not begun.
  t.is((await serviceStatus(host, 'Web')).status, 'stopped');
  mkdirSync(join(host.dataDir, 'db-ready'));
  await eventually(async () => (await serviceStatus(host, 'Web')).status === 'running', {
    what: 'Web running after DB',
  });
  const detail = await request(host.url, '/process?process_name=Web');
  const graph = await request(host.url, '/process/dependency-graph?process_name=Web');
  t.is(detail.status, 200);
  t.deepEqual(detail.body.parallel_groups, graph.body.parallel_groups);
  // Live statuses by name: what the DUMB dashboard colours its graph with.
  t.like(graph.body.statuses, { Web: 'running' });
});
