/** /docs renders in a real headless Chromium and lists the routes. */
import { existsSync } from 'node:fs';
import test from 'ava';
import { HELLO_PLUGIN_DIR } from '../../helpers/fixture-paths.js';
import { startHost } from '../../helpers/start-host.js';
import { CHROMIUM_PATH as CHROMIUM, launchChromium } from '../../helpers/chromium.js';

test('Swagger UI renders the operations of every plugin', async (t) => {
  t.true(existsSync(CHROMIUM), `Chromium is installed at ${CHROMIUM} (.ci/run installs it)`);
  const host = await startHost({ plugins: [HELLO_PLUGIN_DIR] });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(new URL('/docs', host.url).href);
    await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });
    const paths = await page.$$eval('.opblock-summary-path', (nodes) =>
      nodes.map((node) => node.textContent ?? ''),
    );
    t.true(paths.some((path) => path.includes('/hello/echo')));
    t.true(paths.some((path) => path.includes('/health')));
    t.true(paths.some((path) => path.includes('/process/capabilities')));
  } finally {
    await browser.close();
    await host.stop();
  }
});
