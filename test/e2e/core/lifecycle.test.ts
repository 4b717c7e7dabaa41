/** Start and stop as CONTRACT.md says: listening line, exit 0 on SIGTERM/SIGINT, bounded stop. */
import test from 'ava';
import { brokenPlugin, HELLO_PLUGIN_DIR } from '../../helpers/fixture-paths.js';
import { request } from '../../helpers/http.js';
import { startHost } from '../../helpers/start-host.js';

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} stops the host with exit code 0`, async (t) => {
    const host = await startHost({ plugins: [HELLO_PLUGIN_DIR] });
    t.regex(
      host.output(),
      /^stackd listening on (http:\/\/127\.0\.0\.1:\d+) — API explorer at \1\/docs$/m,
    );
    t.is((await request(host.url, '/health')).status, 200);
    t.is(await host.stop(signal), 0);
    t.regex(host.output(), new RegExp(`${signal} received`));
  });
}

test('a hook that never finishes cannot hold the stop past its budget', async (t) => {
  const host = await startHost({
    plugins: [brokenPlugin('slow-stop')],
    config: { stackd: { lifecycle: { stop_timeout_ms: 300 } } },
  });
  const began = Date.now();
  t.is(await host.stop(), 0);
  t.true(Date.now() - began < 10_000);
  t.regex(
    host.output(),
    /STACKD_HOOK_TIMEOUT: plugin 'slow-stop' stop did not finish within 300 ms/,
  );
});

test('the listen address comes from --port/--host, else from stackd.api_service', async (t) => {
  const host = await startHost({ plugins: [HELLO_PLUGIN_DIR] });
  try {
    t.true(host.port > 0, 'port 0 picked a free port');
  } finally {
    await host.stop();
  }
});

test('a port already in use fails boot with a clear message', async (t) => {
  const first = await startHost({ plugins: [HELLO_PLUGIN_DIR] });
  try {
    const error = await t.throwsAsync(
      startHost({ plugins: [HELLO_PLUGIN_DIR], extraArgs: ['--port', String(first.port)] }),
    );
    t.regex(error.message, /cannot listen on 127\.0\.0\.1:\d+/);
  } finally {
    await first.stop();
  }
});

test('bad options exit 2 with usage', async (t) => {
  const error = await t.throwsAsync(startHost({ extraArgs: ['--bogus'] }));
  t.regex(error.message, /host exited with 2/);
  t.regex(error.message, /unknown option '--bogus'/);
});
