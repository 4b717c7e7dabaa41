import test from 'ava';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { freePort } from '../../helpers/ports.js';
import { fixtureBlock, isAlive, program, readPid, startSupervisor } from './support.js';

const body = (name: string) => ({ body: { process_name: name } });

test('start, stop and restart a process over HTTP', async (t) => {
  const host = await startSupervisor({
    app: fixtureBlock('App', program('long-running'), ['--port', '{port}'], {
      enabled: false,
      // A real port: one validation for every source refuses 0 in a block (docs/decisions.md §29).
      port: await freePort(),
    }),
  });
  t.teardown(() => host.stop());
  const started = await request(host.url, '/process/start-service', body('App'));
  t.is(started.status, 200);
  t.like(started.body, {
    status: 'running',
    process_name: 'App',
    message: 'Service started successfully',
  });
  const pid = started.body.pid as number;
  t.true(isAlive(pid));
  const again = await request(host.url, '/process/start-service', body('app'));
  t.like(again, { status: 200, body: { status: 'running', pid } });

  const restarted = await request(host.url, '/process/restart-service', body('App'));
  t.like(restarted.body, { status: 'running', message: 'Service restarted successfully' });
  t.not(restarted.body.pid, pid);
  t.false(isAlive(pid));

  // Stop only once the program installed its SIGTERM handler (its first log line), or a loaded
  // machine may deliver the signal while node is still booting and the exit is 143, not 0.
  await eventually(
    async () => {
      const logs = await request(host.url, '/logs?process_name=App');
      return String(logs.body.chunk).includes(
        `long-running started pid=${String(restarted.body.pid)}`,
      );
    },
    { what: 'the restarted program to be up' },
  );
  const stopped = await request(host.url, '/process/stop-service', body('App'));
  t.deepEqual(stopped.body, {
    status: 'stopped',
    process_name: 'App',
    message: 'Service stopped successfully',
    exit_code: 0,
  });
  t.false(isAlive(restarted.body.pid as number));
  const status = await request(host.url, '/process/service-status?process_name=App');
  t.like(status.body, { status: 'stopped', restarts: 1, exit_code: 0 });
  const stopAgain = await request(host.url, '/process/stop-service', body('App'));
  t.like(stopAgain, {
    status: 200,
    body: { status: 'stopped', message: 'Service was not running' },
  });

  const log = readFileSync(join(host.dataDir, 'logs', 'app.log'), 'utf8');
  t.regex(log, /long-running started/);
  t.regex(log, /long-running got SIGTERM/);
});

test('earlier-generation start/stop/restart answer success, message and pid', async (t) => {
  const host = await startSupervisor({
    app: fixtureBlock('App', program('long-running'), [], { enabled: false }),
  });
  t.teardown(() => host.stop());
  const started = await request(host.url, '/process/start', body('App'));
  t.like(started.body, { success: true, message: 'App started' });
  t.is(typeof started.body.pid, 'number');
  const restarted = await request(host.url, '/process/restart', body('App'));
  t.like(restarted.body, { success: true, message: 'App restarted' });
  const stopped = await request(host.url, '/process/stop', body('App'));
  t.deepEqual(stopped.body, { success: true, message: 'App stopped', pid: null });
  const openapi = await request(host.url, '/openapi.json');
  t.true(openapi.body.paths['/process/start'].post.deprecated);
});

test('a child ignoring SIGTERM is killed after its stop timeout; grandchildren are gone', async (t) => {
  const host = await startSupervisor({
    stubborn: fixtureBlock('Stubborn', program('ignores-sigterm'), ['--pid-file', 'stubborn.pid'], {
      stop_timeout: 1,
    }),
    parent: fixtureBlock('Parent', program('spawns-grandchild'), ['--pid-file', 'grandchild.pid']),
  });
  t.teardown(() => host.stop());
  const stubborn = await eventually(() => readPid(join(host.dataDir, 'stubborn.pid')), {
    what: 'stubborn pid',
  });
  const grandchild = await eventually(() => readPid(join(host.dataDir, 'grandchild.pid')), {
    what: 'grandchild pid',
  });
  await eventually(
    async () =>
      (await request(host.url, '/process/service-status?process_name=Stubborn')).body.status ===
      'running',
    { what: 'Stubborn running' },
  );
  const began = Date.now();
  const stopped = await request(host.url, '/process/stop-service', body('Stubborn'));
  t.true(Date.now() - began >= 950, 'the stop timeout passed first');
  t.like(stopped.body, { status: 'stopped', exit_code: 137 });
  t.false(isAlive(stubborn));
  const status = await request(host.url, '/process/service-status?process_name=Stubborn');
  t.regex(status.body.reason as string, /killed with SIGKILL after the 1 s stop timeout/);

  t.true(isAlive(grandchild));
  await request(host.url, '/process/stop-service', body('Parent'));
  t.false(isAlive(grandchild));
});

test('failed starts: 409 with the exit reason, 400 for a block that cannot run', async (t) => {
  const host = await startSupervisor(
    {
      broken: fixtureBlock(
        'Broken',
        program('crashes'),
        ['--code', '4', '--message', 'error: config.yml missing'],
        {
          enabled: false,
          auto_restart: false,
        },
      ),
      typo: fixtureBlock('Typo', program('long-running'), ['--port', '{prot}'], {
        enabled: false,
        port: 1,
        prot: { not: 'a scalar' },
      }),
    },
    { supervisor: { start_check_ms: 5000 } },
  );
  t.teardown(() => host.stop());
  const broken = await request(host.url, '/process/start-service', body('Broken'));
  t.is(broken.status, 409, 'an exit during the start check is the stack, not a host fault');
  t.deepEqual(broken.body, {
    code: 'PROCESS_START_FAILED',
    detail: 'Broken failed to stay running (exit code 4): error: config.yml missing',
  });
  t.like((await request(host.url, '/process/service-status?process_name=Broken')).body, {
    status: 'crashed',
    exit_code: 4,
  });
  const typo = await request(host.url, '/process/start-service', body('Typo'));
  t.is(typo.status, 400);
  t.is(typo.body.code, 'PROCESS_CONFIG_INVALID');
  t.regex(
    typo.body.detail as string,
    /placeholder \{prot\} in command\[3\]: field 'prot' is not a string/,
  );
  const legacy = await request(host.url, '/process/start', body('Typo'));
  t.like(legacy, { status: 200, body: { success: false, pid: null } });
});
