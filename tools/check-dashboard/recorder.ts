/**
 * What the dashboard run records on the way: every failed API call, failed WebSocket and page
 * error (findings), and what happened around them (notes), each tagged with the page it was on.
 */
import type { BrowserContext, Page, Response } from 'playwright-core';

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

/** Findings, notes and screenshots of one run, and the page the browser is on. */
export class Recorder implements DriveResult {
  readonly findings: Finding[] = [];
  readonly screenshots: string[] = [];
  readonly notes: string[] = [];
  /** The page being visited: every finding and note is tagged with it. */
  current = 'start';

  constructor(private readonly baseUrl: string) {}

  /**
   * This machine has no internet. The dashboard's calls to public sites (GitHub contributor
   * lists, docs) are answered with an empty list here, so their failure cannot hide ours.
   */
  async answerExternalCalls(context: BrowserContext): Promise<void> {
    await context.route(
      (url) => url.origin !== new URL(this.baseUrl).origin,
      async (route) => {
        this.notes.push(
          `${this.current}: external ${route.request().method()} ${route.request().url()} answered []`,
        );
        await route.fulfill({ status: 200, contentType: 'application/json', body: '[]' });
      },
    );
  }

  /** Record the page's errors, failed calls and sockets from now on. */
  watch(page: Page): void {
    page.on('pageerror', (error) =>
      this.findings.push({
        page: this.current,
        kind: 'page-error',
        detail: error.stack ?? error.message,
      }),
    );
    page.on('console', (message) => {
      if (message.type() === 'error')
        this.notes.push(`${this.current}: console error: ${message.text().slice(0, 300)}`);
    });
    page.on('response', (response) => this.recordResponse(response));
    page.on('requestfailed', (request) => {
      const url = new URL(request.url());
      const reason = request.failure()?.errorText ?? 'failed';
      if (url.origin !== new URL(this.baseUrl).origin) {
        // This machine has no internet: the dashboard's calls to public sites fail here.
        this.notes.push(`${this.current}: external ${request.method()} ${url.href} ${reason}`);
        return;
      }
      // Navigations away abort the page's pending calls; that is not a failure of the API.
      if (reason === 'net::ERR_ABORTED') {
        this.notes.push(`${this.current}: aborted ${request.method()} ${url.pathname}`);
        return;
      }
      this.findings.push({
        page: this.current,
        kind: 'http',
        detail: `${request.method()} ${url.pathname} ${reason}`,
      });
    });
    page.on('websocket', (socket) => {
      const path = new URL(socket.url()).pathname;
      let frames = 0;
      socket.on('framereceived', () => (frames += 1));
      socket.on('socketerror', (error) =>
        this.findings.push({ page: this.current, kind: 'websocket', detail: `${path}: ${error}` }),
      );
      socket.on('close', () =>
        this.notes.push(`${this.current}: ${path} closed after ${frames} frame(s)`),
      );
    });
  }

  /** An API answer of 400 or more is a finding, unless it is a documented refusal. */
  private async recordResponse(response: Response): Promise<void> {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/api/') && !url.pathname.startsWith('/auth/')) return;
    if (response.status() < 400) return;
    const at = this.current;
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
      this.notes.push(`${at}: expected ${method} ${url.pathname} → ${response.status()} (${sent})`);
      return;
    }
    const answer = await response.text().catch(() => '');
    this.findings.push({
      page: at,
      kind: 'http',
      detail:
        `${response.request().method()} ${url.pathname}${url.search} → ${response.status()} ${answer.slice(0, 300)}` +
        (sent ? `\n    sent: ${sent.slice(0, 600)}` : ''),
    });
  }
}
