/**
 * Opt-in health probing of a running process (a block's `health_check`): the pid is alive and
 * not a zombie, and every configured port accepts a TCP connect. After `unhealthy_threshold`
 * failures in a row the owner is told once (it restarts the process).
 */
import { readFile } from 'node:fs/promises';
import type { HealthCheckSpec } from '../process-spec/process-spec.js';
import { probeTcp } from '../waits/probes.js';
import { pidPresence } from './process-group.js';
import { parseStatLine, isDead } from './proc-table.js';

const PORT_TIMEOUT_MS = 1_500;

/** Why a process is unhealthy, or null when it is healthy. */
export async function probeProcessHealth(
  pid: number,
  spec: HealthCheckSpec,
  signal: AbortSignal,
): Promise<string | null> {
  if (pidPresence(pid) !== 'ours') return `process ${pid} is not running`;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  const info = stat === null ? undefined : parseStatLine(stat);
  if (info !== undefined && isDead(info)) return `process ${pid} has exited`;
  for (const port of spec.ports) {
    const result = await probeTcp(spec.host, port, PORT_TIMEOUT_MS, signal);
    if (!result.ready) return `port ${spec.host}:${port} not responding`;
  }
  return null;
}

/** Probes one running process on a timer until stopped. */
export class HealthMonitor {
  private timer: NodeJS.Timeout | undefined;
  private readonly controller = new AbortController();
  private failures = 0;

  constructor(
    private readonly pid: number,
    private readonly spec: HealthCheckSpec,
    private readonly onUnhealthy: (reason: string) => void,
  ) {}

  start(): void {
    this.schedule(this.spec.graceMs);
  }

  stop(): void {
    this.controller.abort();
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number): void {
    if (this.controller.signal.aborted) return;
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const reason = await probeProcessHealth(this.pid, this.spec, this.controller.signal);
    if (this.controller.signal.aborted) return;
    this.failures = reason === null ? 0 : this.failures + 1;
    if (reason !== null && this.failures >= this.spec.unhealthyThreshold) {
      this.stop();
      this.onUnhealthy(`${reason} (${this.failures} checks in a row)`);
      return;
    }
    this.schedule(this.spec.intervalMs);
  }
}
