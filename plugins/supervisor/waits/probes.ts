/** One-shot readiness probes behind the pre-start waits. Each answers ready or not, never throws. */
import { access, readFile, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { describeUrl, type WaitItem } from './wait-specs.js';

/** A probe's answer; `detail` says why it is not ready yet. */
export type ProbeResult =
  { readonly ready: true } | { readonly ready: false; readonly detail: string };

const READY: ProbeResult = { ready: true };

function notReady(detail: string): ProbeResult {
  return { ready: false, detail };
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}

/** The path exists. */
export async function probeDir(path: string): Promise<ProbeResult> {
  try {
    await access(path);
    return READY;
  } catch {
    return notReady(`${path} does not exist`);
  }
}

/** `\040` style escapes of /proc/self/mountinfo. */
function decodeMountPath(raw: string): string {
  return raw.replace(/\\([0-7]{3})/g, (_match, octal: string) =>
    String.fromCharCode(parseInt(octal, 8)),
  );
}

/** The path is a mount point (mountinfo on Linux, else its device differs from its parent's). */
export async function probeMount(path: string): Promise<ProbeResult> {
  const wanted = path.length > 1 ? path.replace(/\/+$/, '') : path;
  try {
    const table = await readFile('/proc/self/mountinfo', 'utf8');
    const mounted = table
      .split('\n')
      .some((line) => decodeMountPath(line.split(' ')[4] ?? '') === wanted);
    return mounted ? READY : notReady(`${wanted} is not a mount point`);
  } catch {
    try {
      const [own, parent] = await Promise.all([stat(wanted), stat(dirname(wanted))]);
      return own.dev !== parent.dev || wanted === '/'
        ? READY
        : notReady(`${wanted} is not a mount point`);
    } catch {
      return notReady(`${wanted} does not exist`);
    }
  }
}

/** A TCP connect succeeds within `timeoutMs`. */
export function probeTcp(
  host: string,
  port: number,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (result: ProbeResult): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(result);
    };
    const onAbort = (): void => finish(notReady('cancelled'));
    const timer = setTimeout(
      () => finish(notReady(`${host}:${port} did not accept within ${timeoutMs} ms`)),
      timeoutMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => finish(READY));
    socket.once('error', (error) => finish(notReady(`${host}:${port}: ${error.message}`)));
  });
}

function hasJsonPath(body: unknown, path: string): boolean {
  let current = body;
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null) return false;
    if (!Object.hasOwn(current, part)) return false;
    current = (current as Record<string, unknown>)[part];
  }
  return true;
}

/** The URL answers 2xx (207 for PROPFIND) within its timeout, with the JSON path when asked. */
export async function probeUrl(
  item: Extract<WaitItem, { kind: 'url' }>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ProbeResult> {
  const where = describeUrl(item.url);
  try {
    const response = await fetch(item.url, {
      method: item.method,
      headers: item.headers,
      redirect: 'follow',
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
    const ok = response.status >= 200 && response.status < 300;
    if (!ok) {
      await response.body?.cancel();
      return notReady(`${where} answered ${response.status}`);
    }
    if (item.expectedJsonPath === null) {
      await response.body?.cancel();
      return READY;
    }
    const body: unknown = await response.json().catch(() => undefined);
    return hasJsonPath(body, item.expectedJsonPath)
      ? READY
      : notReady(`${where} has no ${item.expectedJsonPath} in its JSON answer`);
  } catch (error) {
    return notReady(`${where}: ${errorText(error)}`);
  }
}
