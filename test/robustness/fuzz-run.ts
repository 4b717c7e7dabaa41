/**
 * The fuzz run: every operation and stream of `/openapi.json`, hostile requests planned from a
 * seed, sent a few at a time, then the SSRF cases (ssrf-cases.ts); findings are 500s (or any INTERNAL_ERROR), 5xx that are not about
 * storage or an upstream, and requests that never answer. Afterwards the host must still be
 * serving.
 */
import { request } from '../helpers/http.js';
import { HOSTILE_STRINGS, INVALID_UTF8, MALFORMED_JSON } from './hostile-values.js';
import { deepNesting } from './json-text.js';
import { operationLabel, operationsOf, type Operation } from './openapi-model.js';
import { Prng } from './prng.js';
import { sendRaw, type RawOutcome } from './raw-client.js';
import { rawSocketSession, type RawFrame } from './raw-websocket.js';
import { planRequest, type PlannedRequest } from './request-plan.js';
import type { KnownNames } from './schema-values.js';
import { runSsrfCases } from './ssrf-cases.js';

/** Knobs of a run. */
export interface FuzzOptions {
  readonly seed: number;
  readonly requests: number;
  readonly concurrency: number;
  /** WebSocket sessions per stream. */
  readonly socketSessions: number;
  readonly timeoutMs: number;
  /** Told about every HTTP answer (the OpenAPI replay checks each against the document). */
  readonly onAnswer?: (operation: Operation, label: string, outcome: RawOutcome) => void;
}

/** Something the host must never do, with what reproduces it. */
export interface Finding {
  readonly what: string;
  readonly request: string;
  readonly kind: string;
  readonly detail: string;
}

/** What a run saw. */
export interface FuzzReport {
  readonly seed: number;
  readonly sent: number;
  readonly byStatus: Record<string, number>;
  readonly sockets: number;
  readonly findings: Finding[];
  readonly healthyAfter: boolean;
}

// 5xx that describe the world, not a host fault: an upstream behind a proxy, a storage
// condition, a dependency starting up.
const ACCEPTED_5XX = new Set([502, 503, 504, 507]);

/** Operations the run leaves out, because they end the run itself rather than test it. */
function fuzzable(operation: Operation): boolean {
  const bare = operation.path.replace(/^\/api(?=\/)/, '');
  // Turning authentication off or signing the admin out changes who the rest of the run is.
  return !['/auth/disable', '/auth/skip-setup', '/auth/logout'].includes(bare);
}

function classify(planned: PlannedRequest, outcome: RawOutcome): Finding | null {
  if (outcome.kind === 'hang')
    return { what: 'no answer', request: planned.label, kind: planned.kind, detail: 'timed out' };
  if (outcome.kind === 'connection-error') {
    // A connection cut while a too-large body is refused (uWS answers, then closes a socket still
    // sending) is fine; anything else (refused: the host is gone) is a finding.
    const bodyTooLarge = planned.kind === 'oversized' || planned.kind === 'huge-string';
    if (bodyTooLarge && /ECONNRESET|EPIPE|aborted|socket hang up/.test(outcome.reason)) return null;
    return {
      what: 'connection failed',
      request: planned.label,
      kind: planned.kind,
      detail: outcome.reason,
    };
  }
  if (outcome.kind !== 'answer') return null;
  const internal = outcome.body.includes('"INTERNAL_ERROR"');
  if (outcome.status < 500 && !internal) return null;
  if (ACCEPTED_5XX.has(outcome.status) && !internal) return null;
  return {
    what: `status ${outcome.status}`,
    request: planned.label,
    kind: planned.kind,
    detail: outcome.body.slice(0, 300),
  };
}

function frames(prng: Prng): RawFrame[] {
  const text = (value: string): RawFrame => ({ opcode: 1, payload: Buffer.from(value, 'utf8') });
  return Array.from({ length: prng.int(1, 6) }, () => {
    switch (prng.int(0, 7)) {
      case 0:
        return text(prng.pick(HOSTILE_STRINGS));
      case 1:
        return text(deepNesting(prng.pick([100, 3_000]), prng.pick(['array', 'object'])));
      case 2:
        return text(prng.pick(MALFORMED_JSON));
      case 3:
        return { opcode: 1, payload: prng.pick(INVALID_UTF8) };
      case 4:
        return {
          opcode: 2,
          payload: Buffer.from(Array.from({ length: 64 }, () => prng.int(0, 255))),
        };
      case 5:
        return text('x'.repeat(prng.pick([70_000, 1_100_000])));
      case 6:
        return { opcode: prng.pick([3, 7, 11]), payload: Buffer.from('bad opcode') };
      default:
        return text(JSON.stringify({ type: 'ping', extra: prng.pick(HOSTILE_STRINGS) }));
    }
  });
}

/** Run the fuzzer against a started host. */
export async function runFuzz(
  origin: string,
  token: string,
  names: KnownNames,
  options: FuzzOptions,
): Promise<FuzzReport> {
  const prng = new Prng(options.seed);
  const document = (await request(origin, '/openapi.json', { token })).body as unknown;
  const operations = operationsOf(document).filter(fuzzable);
  const http = operations.filter((operation) => !operation.websocket);
  const streams = operations.filter((operation) => operation.websocket);
  const byStatus: Record<string, number> = {};
  const findings: Finding[] = [];
  let sent = 0;

  // Every operation at least once, then random ones.
  const plan: Operation[] = [...http];
  while (plan.length < options.requests) plan.push(prng.pick(http));
  let next = 0;
  const worker = async (workerPrng: Prng): Promise<void> => {
    while (next < plan.length) {
      const operation = plan[next++] as Operation;
      const planned = planRequest(operation, workerPrng, names, token, {
        heavy: workerPrng.chance(0.05),
      });
      const outcome = await sendRaw(origin, planned.raw, options.timeoutMs);
      sent += 1;
      const key = outcome.kind === 'answer' ? String(outcome.status) : outcome.kind;
      byStatus[key] = (byStatus[key] ?? 0) + 1;
      options.onAnswer?.(operation, planned.label, outcome);
      const finding = classify(planned, outcome);
      if (finding !== null) findings.push(finding);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, () => worker(prng.fork())));

  let sockets = 0;
  for (const stream of streams) {
    for (let session = 0; session < options.socketSessions; session += 1) {
      const withToken = prng.chance(0.8);
      const query = withToken ? `?token=${encodeURIComponent(token)}` : '';
      const target = `${stream.path.replace(/\{[^}]+\}/g, 'x')}${query}${prng.chance(0.2) ? '&process_name=%ff' : ''}`;
      const result = await rawSocketSession(origin, target, frames(prng), options.timeoutMs);
      sockets += 1;
      if (result.hung)
        findings.push({
          what: 'no upgrade answer',
          request: `WS ${target}`,
          kind: 'socket',
          detail: '',
        });
      else if (result.status !== null && result.status >= 500)
        findings.push({
          what: `status ${result.status}`,
          request: `WS ${target}`,
          kind: 'socket',
          detail: '',
        });
    }
  }

  // Outbound URLs: metadata and stackd's own address refused at write time and on redirects.
  const ssrf = await runSsrfCases(origin, token);
  sent += ssrf.sent;
  findings.push(...ssrf.findings);

  const health = await sendRaw(origin, { method: 'GET', target: '/health' }, 5_000);
  const listing = await sendRaw(
    origin,
    { method: 'GET', target: '/process/processes', token },
    5_000,
  );
  const healthyAfter =
    health.kind === 'answer' &&
    health.status === 200 &&
    listing.kind === 'answer' &&
    listing.status === 200;
  return { seed: options.seed, sent, byStatus, sockets, findings, healthyAfter };
}

/** A one-screen summary of a report. */
export function describeReport(report: FuzzReport): string {
  const statuses = Object.entries(report.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
  const findings = report.findings
    .slice(0, 20)
    .map((finding) => `  ${finding.what}: ${finding.request} [${finding.kind}] ${finding.detail}`)
    .join('\n');
  return [
    `seed ${report.seed}: ${report.sent} requests (${statuses}), ${report.sockets} socket sessions`,
    `findings: ${report.findings.length}${findings === '' ? '' : `\n${findings}`}`,
    `host healthy afterwards: ${report.healthyAfter}`,
  ].join('\n');
}

export { operationLabel };

/** The host log lines that explain 500s (the causes are logged, never sent). */
export function unhandledErrors(hostOutput: string, limit = 10): string {
  return hostOutput
    .split('\n')
    .filter((line) => line.includes('unhandled error'))
    .slice(0, limit)
    .map((line) => line.slice(0, 1_200))
    .join('\n');
}
