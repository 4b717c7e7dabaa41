/**
 * The scripted steps on single dashboard pages: sign-up and sign-in, the missing-feature
 * banners, the Metrics settings dialog and a service page's tabs and tool panels.
 */
import type { Page } from 'playwright-core';
import type { Finding } from './recorder.js';

const USER = 'admin';
const PASSWORD = 'dashboard-check-1';

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

export async function checkBanners(page: Page, name: string, findings: Finding[]): Promise<void> {
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
export async function applyMetricsSettings(
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
export async function clickThrough(
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

export async function setupAndLogin(
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
