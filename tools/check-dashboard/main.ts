/**
 * `npm run check:dashboard`: the DUMB dashboard (a local dmbdb checkout named by DMBDB_DIR),
 * unchanged, against a real stackd with authentication on, driven in headless Chromium. Fails
 * on any failed API or WebSocket call or page error; screenshots land in the output folder.
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDashboard } from './build.js';
import { driveDashboard } from './drive.js';
import { freePort, startCheckStack } from './stack.js';

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const answer = await fetch(url);
      if (answer.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function main(): Promise<number> {
  const checkout = process.env.DMBDB_DIR;
  if (checkout === undefined || checkout === '') {
    console.log('check:dashboard skipped: set DMBDB_DIR to a local checkout of nicocapalbo/dmbdb');
    return 0;
  }
  const cache = process.env.DASHBOARD_CACHE_DIR ?? join(tmpdir(), 'stackd-dashboard-check');
  const shots = process.env.DASHBOARD_SHOTS_DIR ?? join(cache, 'screenshots');
  const build = buildDashboard(checkout, cache);
  const stack = await startCheckStack();
  const port = await freePort();
  const dashboard = spawn(build.node, ['.output/server/index.mjs'], {
    cwd: build.dir,
    env: {
      ...process.env,
      PORT: String(port),
      NUXT_HOST: '127.0.0.1',
      HOST: '127.0.0.1',
      DUMB_API_URL: stack.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let dashboardLog = '';
  dashboard.stdout.on('data', (chunk: Buffer) => (dashboardLog += chunk.toString()));
  dashboard.stderr.on('data', (chunk: Buffer) => (dashboardLog += chunk.toString()));
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForHttp(baseUrl, 30_000);
    console.log(`dashboard ${build.version} on ${baseUrl} → stackd ${stack.url}`);
    const result = await driveDashboard(baseUrl, shots);
    for (const note of result.notes) console.log(`note: ${note}`);
    console.log(`screenshots: ${shots} (${result.screenshots.length})`);
    if (result.findings.length === 0) {
      console.log('check:dashboard passed: no failed call, no page error');
      return 0;
    }
    for (const finding of result.findings)
      console.log(`FAIL [${finding.page}] ${finding.kind}: ${finding.detail}`);
    console.log(`check:dashboard failed: ${result.findings.length} finding(s)`);
    if (process.env.DASHBOARD_VERBOSE) console.log(dashboardLog);
    return 1;
  } finally {
    dashboard.kill('SIGTERM');
    await stack.stop();
  }
}

process.exitCode = await main();
