/**
 * Drives the dashboard in headless Chromium (Debian's package, through playwright-core) and
 * records every failed API call, failed WebSocket and page error on the way.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../test/helpers/chromium.js';
import { applyMetricsSettings, checkBanners, clickThrough, setupAndLogin } from './page-steps.js';
import { Recorder, type DriveResult } from './recorder.js';

export type { DriveResult, Finding } from './recorder.js';

/** One browser page of the run: visits are screenshot and checked for missing-feature banners. */
class Tour {
  constructor(
    readonly page: Page,
    readonly record: Recorder,
    private readonly baseUrl: string,
    private readonly shotsDir: string,
  ) {}

  readonly shot = async (name: string): Promise<void> => {
    const file = join(this.shotsDir, `${name}.png`);
    await this.page.screenshot({ path: file, fullPage: false });
    this.record.screenshots.push(file);
  };

  async visit(name: string, path: string, settleMs = 4000): Promise<void> {
    this.record.current = name;
    await this.page
      .goto(new URL(path, this.baseUrl).toString(), { waitUntil: 'networkidle' })
      .catch((error: Error) =>
        this.record.findings.push({
          page: name,
          kind: 'check',
          detail: `goto ${path}: ${error.message}`,
        }),
      );
    await this.page.waitForTimeout(settleMs);
    await this.shot(name);
    await checkBanners(this.page, name, this.record.findings);
  }
}

export async function driveDashboard(baseUrl: string, shotsDir: string): Promise<DriveResult> {
  mkdirSync(shotsDir, { recursive: true });
  const record = new Recorder(baseUrl);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    await record.answerExternalCalls(context);
    const page = await context.newPage();
    record.watch(page);
    const tour = new Tour(page, record, baseUrl, shotsDir);
    await setupAndLogin(
      page,
      baseUrl,
      (name) => (record.current = name),
      tour.shot,
      record.findings,
    );
    await tour.visit('dashboard', '/');
    await visitServices(tour);
    await visitRealtimeLogs(tour);
    await tour.visit('metrics', '/metrics', 8000);
    await applyMetricsSettings(page, tour.shot, record.findings, record.notes);
    await tour.visit('settings', '/settings');
    // The AI page works only when stackd says `ai_diagnostics`; checkBanners fails the run if
    // the page says the backend lacks it.
    await tour.visit('ai', '/ai');
    return { findings: record.findings, screenshots: record.screenshots, notes: record.notes };
  } finally {
    await browser.close();
  }
}

/** Every service page the dashboard links to, with its tabs and tool panels. */
async function visitServices(tour: Tour): Promise<void> {
  const anchors = await tour.page.locator('a[href^="/services/"]').all();
  const serviceLinks = (await Promise.all(anchors.map((link) => link.getAttribute('href')))).filter(
    (href): href is string => href !== null,
  );
  tour.record.notes.push(`service links: ${serviceLinks.join(', ')}`);
  if (serviceLinks.length < 3)
    tour.record.findings.push({
      page: 'dashboard',
      kind: 'check',
      detail: `${serviceLinks.length} service link(s), expected the 3 processes`,
    });
  for (const href of [...new Set(serviceLinks)]) {
    const name = `service-${decodeURIComponent(href.split('/')[2] ?? '').replace(/[^a-z0-9]+/gi, '-')}`;
    await tour.visit(name, href, 5000);
    await clickThrough(tour.page, name, tour.shot, tour.record.notes);
  }
}

async function visitRealtimeLogs(tour: Tour): Promise<void> {
  await tour.visit('realtime-logs', '/rtl', 6000);
  // The demo stack's worker logs "<LEVEL> processed job <n> in <ms> ms" every second.
  const logLines = await tour.page
    .getByText(/processed job \d+/)
    .count()
    .catch(() => 0);
  tour.record.notes.push(`realtime-logs: ${logLines} line(s) of the demo worker shown`);
  if (logLines === 0)
    tour.record.findings.push({
      page: 'realtime-logs',
      kind: 'check',
      detail: 'no line of the demo worker arrived on the Real-Time Logs page',
    });
}
