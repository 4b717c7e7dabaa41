/**
 * Drives the dashboard in headless Chromium (Debian's package, through playwright-core) and
 * records every failed API call, failed WebSocket and page error on the way.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../test/helpers/chromium.js';

export interface Finding {
  readonly page: string;
  readonly kind: 'http' | 'websocket' | 'page-error' | 'console' | 'check';
  readonly detail: string;
}

export interface DriveResult {
  readonly findings: Finding[];
  readonly screenshots: string[];
  readonly notes: string[];
}

/**
 * Refusals that are the documented answer, not a fault: the stackd API block has no config file,
 * so `POST /config/service-config` for it is 400 "No config file path defined." (DUMB answers the
 * same for its API service, and the page then shows no config editor).
 */
const EXPECTED_REFUSALS: ReadonlyArray<{
  method: string;
  path: string;
  status: number;
  sent: RegExp;
}> = [
  {
    method: 'POST',
    path: '/api/config/service-config',
    status: 400,
    sent: /"service_name":"stackd API"/,
  },
];

const USER = 'admin';
const PASSWORD = 'dashboard-check-1';

export async function driveDashboard(baseUrl: string, shotsDir: string): Promise<DriveResult> {
  mkdirSync(shotsDir, { recursive: true });
  const findings: Finding[] = [];
  const screenshots: string[] = [];
  const notes: string[] = [];
  let current = 'start';
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    // This machine has no internet. The dashboard's calls to public sites (GitHub contributor
    // lists, docs) are answered with an empty list here, so their failure cannot hide ours.
    await context.route(
      (url) => url.origin !== new URL(baseUrl).origin,
      async (route) => {
        notes.push(
          `${current}: external ${route.request().method()} ${route.request().url()} answered []`,
        );
        await route.fulfill({ status: 200, contentType: 'application/json', body: '[]' });
      },
    );
    const page = await context.newPage();
    page.on('pageerror', (error) =>
      findings.push({ page: current, kind: 'page-error', detail: error.stack ?? error.message }),
    );
    page.on('console', (message) => {
      if (message.type() === 'error')
        notes.push(`${current}: console error: ${message.text().slice(0, 300)}`);
    });
    page.on('response', async (response) => {
      const url = new URL(response.url());
      if (!url.pathname.startsWith('/api/') && !url.pathname.startsWith('/auth/')) return;
      if (response.status() < 400) return;
      const at = current;
      const sent = response.request().postData();
      const method = response.request().method();
      const expected = EXPECTED_REFUSALS.find(
        (refusal) =>
          refusal.method === method &&
          refusal.path === url.pathname &&
          refusal.status === response.status() &&
          refusal.sent.test(sent ?? ''),
      );
      if (expected !== undefined) {
        notes.push(`${at}: expected ${method} ${url.pathname} → ${response.status()} (${sent})`);
        return;
      }
      const answer = await response.text().catch(() => '');
      findings.push({
        page: at,
        kind: 'http',
        detail:
          `${response.request().method()} ${url.pathname}${url.search} → ${response.status()} ${answer.slice(0, 300)}` +
          (sent ? `\n    sent: ${sent.slice(0, 600)}` : ''),
      });
    });
    page.on('requestfailed', (request) => {
      const url = new URL(request.url());
      const reason = request.failure()?.errorText ?? 'failed';
      if (url.origin !== new URL(baseUrl).origin) {
        // This machine has no internet: the dashboard's calls to public sites fail here.
        notes.push(`${current}: external ${request.method()} ${url.href} ${reason}`);
        return;
      }
      // Navigations away abort the page's pending calls; that is not a failure of the API.
      if (reason === 'net::ERR_ABORTED') {
        notes.push(`${current}: aborted ${request.method()} ${url.pathname}`);
        return;
      }
      findings.push({
        page: current,
        kind: 'http',
        detail: `${request.method()} ${url.pathname} ${reason}`,
      });
    });
    page.on('websocket', (socket) => {
      const path = new URL(socket.url()).pathname;
      let frames = 0;
      socket.on('framereceived', () => (frames += 1));
      socket.on('socketerror', (error) =>
        findings.push({ page: current, kind: 'websocket', detail: `${path}: ${error}` }),
      );
      socket.on('close', () => notes.push(`${current}: ${path} closed after ${frames} frame(s)`));
    });
    const shot = async (name: string) => {
      const file = join(shotsDir, `${name}.png`);
      await page.screenshot({ path: file, fullPage: false });
      screenshots.push(file);
    };
    const visit = async (name: string, path: string, settleMs = 4000) => {
      current = name;
      await page
        .goto(new URL(path, baseUrl).toString(), { waitUntil: 'networkidle' })
        .catch((error: Error) =>
          findings.push({ page: name, kind: 'check', detail: `goto ${path}: ${error.message}` }),
        );
      await page.waitForTimeout(settleMs);
      await shot(name);
      await checkBanners(page, name, findings);
    };

    await setupAndLogin(page, baseUrl, (name) => (current = name), shot, findings);
    await visit('dashboard', '/');
    const anchors = await page.locator('a[href^="/services/"]').all();
    const serviceLinks = (
      await Promise.all(anchors.map((link) => link.getAttribute('href')))
    ).filter((href): href is string => href !== null);
    notes.push(`service links: ${serviceLinks.join(', ')}`);
    if (serviceLinks.length < 3)
      findings.push({
        page: 'dashboard',
        kind: 'check',
        detail: `${serviceLinks.length} service link(s), expected the 3 processes`,
      });
    for (const href of [...new Set(serviceLinks)]) {
      const name = `service-${decodeURIComponent(href.split('/')[2] ?? '').replace(/[^a-z0-9]+/gi, '-')}`;
      await visit(name, href, 5000);
      await clickThrough(page, name, shot, notes);
    }
    await visit('realtime-logs', '/rtl', 6000);
    // The demo stack's worker logs "<LEVEL> processed job <n> in <ms> ms" every second.
    const logLines = await page
      .getByText(/processed job \d+/)
      .count()
      .catch(() => 0);
    notes.push(`realtime-logs: ${logLines} line(s) of the demo worker shown`);
    if (logLines === 0)
      findings.push({
        page: 'realtime-logs',
        kind: 'check',
        detail: 'no line of the demo worker arrived on the Real-Time Logs page',
      });
    await visit('metrics', '/metrics', 8000);
    await applyMetricsSettings(page, shot, findings, notes);
    await visit('settings', '/settings');
    // The AI page works only when stackd says `ai_diagnostics`; checkBanners fails the run if
    // the page says the backend lacks it.
    await visit('ai', '/ai');
    return { findings, screenshots, notes };
  } finally {
    await browser.close();
  }
}

/**
 * Banners the dashboard shows when its backend lacks a feature, for features stackd has: any of
 * them on a page means a capability flag or route the dashboard gates on is missing.
 */
const MISSING_FEATURE_BANNERS: ReadonlyArray<{ readonly text: RegExp; readonly feature: string }> =
  [
    { text: /does not expose AI diagnostics/i, feature: 'AI diagnostics (the ai plugin)' },
    {
      text: /Embedded UI support is not available on this backend/i,
      feature: 'service UIs (GET /config/service-ui)',
    },
    { text: /does not expose|not available on this backend/i, feature: 'a feature it gates on' },
  ];

async function checkBanners(page: Page, name: string, findings: Finding[]): Promise<void> {
  for (const { text, feature } of MISSING_FEATURE_BANNERS) {
    const shown = await page
      .getByText(text)
      .count()
      .catch(() => 0);
    if (shown > 0) {
      findings.push({
        page: name,
        kind: 'check',
        detail: `the page says stackd lacks ${feature} (${text.source})`,
      });
      return;
    }
  }
}

/**
 * The Metrics settings dialog: it lists discovered mounts and interfaces and the history storage;
 * adding the first discovered mount and applying saves through stackd's `dumb.metrics` view.
 */
async function applyMetricsSettings(
  page: Page,
  shot: (name: string) => Promise<void>,
  findings: Finding[],
  notes: string[],
): Promise<void> {
  const open = page.locator(
    'button[title="Configure backend metrics retention and history settings"]',
  );
  if ((await open.count()) === 0) {
    findings.push({ page: 'metrics', kind: 'check', detail: 'no metrics Settings button' });
    return;
  }
  await open.first().click();
  await page.waitForTimeout(3000);
  const mounts = page.locator('button:has-text("used · Add")');
  notes.push(`metrics settings: ${await mounts.count()} discovered mount(s) offered`);
  if (await mounts.count()) await mounts.first().click();
  await shot('metrics-settings');
  await page.getByRole('button', { name: 'Apply', exact: true }).last().click();
  await page.waitForTimeout(2000);
  const saved = await page.getByText('Saved', { exact: true }).count();
  if (saved === 0)
    findings.push({
      page: 'metrics',
      kind: 'check',
      detail: 'the metrics settings were not saved',
    });
  else notes.push('metrics settings: applied and saved');
  await shot('metrics-settings-saved');
}

/** A service page's tabs (config, live logs) and its Tools panels (request sync, symlinks). */
async function clickThrough(
  page: Page,
  name: string,
  shot: (name: string) => Promise<void>,
  notes: string[],
): Promise<void> {
  for (const tab of ['Service Config', 'Service Logs']) {
    const button = page.getByText(tab, { exact: true });
    if ((await button.count()) === 0) continue;
    await button.first().click();
    await page.waitForTimeout(3000);
    await shot(`${name}-${tab.toLowerCase().replace(' ', '-')}`);
  }
  // The tool panels open above the first tab.
  const firstTab = page.getByText('DMB Config', { exact: true });
  if (await firstTab.count()) await firstTab.first().click();
  for (const panel of ['Seerr Sync', 'Symlinks']) {
    const tools = page.getByRole('button', { name: 'Service tools', exact: true });
    if ((await tools.count()) === 0) {
      notes.push(`${name}: no Tools button`);
      return;
    }
    await page.keyboard.press('Escape');
    const opened = await tools
      .first()
      .click({ timeout: 5000 })
      .then(() => true)
      .catch(() => false);
    if (!opened) {
      notes.push(`${name}: the Tools button was covered; ${panel} not opened`);
      continue;
    }
    await page.waitForTimeout(500);
    const item = page.getByText(panel, { exact: true });
    if ((await item.count()) === 0) {
      await page.keyboard.press('Escape');
      continue;
    }
    await item.first().click();
    await page.waitForTimeout(4000);
    notes.push(`${name}: opened the ${panel} panel`);
    await shot(`${name}-${panel.toLowerCase().replace(' ', '-')}`);
    if (panel === 'Seerr Sync') {
      // Save the settings form as it loaded: it goes through stackd's `seerr_sync` view.
      const apply = page.getByRole('button', { name: /Apply in memory/ }).first();
      if (await apply.count()) {
        await apply.click({ timeout: 5000 }).catch(() => undefined);
        await page.waitForTimeout(2000);
        notes.push(`${name}: applied the Seerr sync settings form`);
        await shot(`${name}-seerr-sync-applied`);
      }
    }
  }
}

async function setupAndLogin(
  page: Page,
  baseUrl: string,
  at: (name: string) => void,
  shot: (name: string) => Promise<void>,
  findings: Finding[],
): Promise<void> {
  at('setup');
  await page.goto(new URL('/setup', baseUrl).toString(), { waitUntil: 'networkidle' });
  await page.waitForTimeout(1500);
  if (await page.locator('#confirmPassword').count()) {
    await page.fill('#username', USER);
    await page.fill('#password', PASSWORD);
    await page.fill('#confirmPassword', PASSWORD);
    await shot('setup');
    await page.click('button[type="submit"]');
    await page.waitForTimeout(3000);
  } else
    findings.push({ page: 'setup', kind: 'check', detail: 'no setup form on a fresh install' });
  if (new URL(page.url()).pathname.startsWith('/login')) {
    at('login');
    await page.fill('input[autocomplete="username"], #username', USER);
    await page.fill('input[type="password"]', PASSWORD);
    await shot('login');
    await page.click('button[type="submit"]');
    await page.waitForTimeout(3000);
  }
  if (new URL(page.url()).pathname.startsWith('/onboarding')) {
    at('onboarding');
    await shot('onboarding');
    await page.getByRole('button', { name: /skip onboarding/i }).click();
    await page.waitForTimeout(1500);
    // A confirmation dialog, when the version asks for one.
    const confirm = page.getByRole('button', { name: /^(skip|confirm|yes)/i });
    if (await confirm.count())
      await confirm
        .first()
        .click()
        .catch(() => undefined);
    await page.waitForTimeout(2000);
  }
  if (new URL(page.url()).pathname !== '/')
    findings.push({
      page: 'login',
      kind: 'check',
      detail: `after sign-in the page is ${page.url()}`,
    });
}
