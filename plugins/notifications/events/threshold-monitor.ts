/**
 * Resource thresholds from the metrics feed (docs/original-product.md §11): CPU, memory, and disk and inode
 * use of every configured filesystem path (the path in the title). A condition is sent once it
 * has held for duration_sec, and once more when it recovers; the first check after start is a
 * baseline that sends nothing. Conditions of paths no longer reported are forgotten.
 */
import type { MetricsSnapshot, NotableEvent } from '../../../sdk/index.js';
import type { Thresholds } from '../config.js';

interface Reading {
  readonly key: string;
  readonly eventType: string;
  readonly label: string;
  readonly value: number;
  readonly limit: number;
  readonly path?: string;
}

interface ConditionState {
  activeSince: number | null;
  fired: boolean;
  title: string;
}

function readings(snapshot: MetricsSnapshot, thresholds: Thresholds): Reading[] {
  const system = snapshot.collectors.system as
    | {
        cpu_percent?: number | null;
        memory?: { percent?: number };
        filesystems?: Array<{ path: string; percent: number | null; inode_percent: number | null }>;
      }
    | undefined;
  if (system === undefined) return [];
  const found: Reading[] = [];
  if (typeof system.cpu_percent === 'number')
    found.push({
      key: 'resource:cpu',
      eventType: 'resource.cpu.high',
      label: 'Cpu',
      value: system.cpu_percent,
      limit: thresholds.cpu_percent,
    });
  if (typeof system.memory?.percent === 'number')
    found.push({
      key: 'resource:memory',
      eventType: 'resource.memory.high',
      label: 'Memory',
      value: system.memory.percent,
      limit: thresholds.memory_percent,
    });
  for (const fs of system.filesystems ?? []) {
    if (typeof fs.percent === 'number')
      found.push({
        key: `resource:disk:${fs.path}`,
        eventType: 'resource.disk.high',
        label: 'Disk',
        value: fs.percent,
        limit: thresholds.disk_percent,
        path: fs.path,
      });
    if (typeof fs.inode_percent === 'number')
      found.push({
        key: `resource:inode:${fs.path}`,
        eventType: 'resource.inode.high',
        label: 'Inode',
        value: fs.inode_percent,
        limit: thresholds.inode_percent,
        path: fs.path,
      });
  }
  return found;
}

const whereOf = (reading: Reading): string =>
  reading.path === undefined ? '' : ` at ${reading.path}`;

/** The recovery of a condition that was sent. */
function recoveredEvent(title: string, reading: Reading): NotableEvent {
  return {
    event_type: 'recovery',
    severity: 'success',
    title: `Recovered: ${title}`,
    body: `The condition has returned below its configured threshold. Last observed value: ${reading.value.toFixed(1)}.`,
    condition_key: reading.key,
    recovered_event_type: reading.eventType,
    source: 'notifications',
    details: { condition_key: reading.key, value: reading.value },
  };
}

/** Watches the conditions between checks. */
export class ThresholdMonitor {
  private readonly conditions = new Map<string, ConditionState>();
  private baseline = true;

  /** One check: the events to send now. */
  check(
    snapshot: MetricsSnapshot | null,
    thresholds: Thresholds,
    now = Date.now(),
  ): NotableEvent[] {
    if (snapshot === null) return [];
    const events: NotableEvent[] = [];
    const current = readings(snapshot, thresholds);
    const seen = new Set(current.map((reading) => reading.key));
    for (const key of this.conditions.keys()) if (!seen.has(key)) this.conditions.delete(key);
    for (const reading of current) {
      const state = this.conditions.get(reading.key) ?? {
        activeSince: null,
        fired: false,
        title: '',
      };
      this.conditions.set(reading.key, state);
      if (reading.value >= reading.limit) {
        const event = this.active(state, reading, thresholds, now);
        if (event !== null) events.push(event);
      } else {
        if (state.fired && !this.baseline && state.title !== '')
          events.push(recoveredEvent(state.title, reading));
        state.activeSince = null;
        state.fired = false;
      }
    }
    this.baseline = false;
    return events;
  }

  /** A condition over its limit: its event once it has held for duration_sec, else null. */
  private active(
    state: ConditionState,
    reading: Reading,
    thresholds: Thresholds,
    now: number,
  ): NotableEvent | null {
    state.activeSince ??= now;
    // The baseline records what is already active and sends nothing, ever, for it.
    if (this.baseline) state.fired = true;
    if (state.fired || now - state.activeSince < thresholds.duration_sec * 1000) return null;
    state.fired = true;
    state.title = `stackd ${reading.label} pressure is high${whereOf(reading)}`;
    return {
      event_type: reading.eventType,
      severity: 'warning',
      title: state.title,
      body: `${reading.label} usage${whereOf(reading)} is ${reading.value.toFixed(1)}%; configured threshold is ${reading.limit.toFixed(1)}%.`,
      condition_key: reading.key,
      source: 'notifications',
      details: { condition_key: reading.key, value: reading.value },
    };
  }
}
