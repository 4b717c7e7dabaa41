/**
 * What a configuration change does to the running processes, decided in one place: POST
 * /config/preview shows this plan and the apply path executes the very same plan, so the
 * prediction is what happens. Per process: restart (naming the fields that force it), start,
 * stop, a change that needs no restart, or nothing; restarts fan out to the processes that
 * depend on a restarted one when its block sets `restart_dependents`; the order respects the
 * dependencies (stops dependents first, starts and restarts dependencies first).
 */
import { isDeepStrictEqual } from 'node:util';
import {
  diffDocuments,
  listProcessEntries,
  type ConfigFieldChange,
  type JsonRecord,
  type ProcessEntry,
} from '../../../sdk/index.js';
import { staleWaits, type ChangeWarning } from './stale-waits.js';

/** What happens to one process. */
export type ProcessAction = 'restart' | 'start' | 'stop' | 'reload_free' | 'nothing';

/** One process's part of the plan. */
export interface ProcessPlan {
  readonly process_name: string;
  readonly action: ProcessAction;
  /** Why, in words. */
  readonly reason: string;
  /** The block fields that changed (for a restart: the ones forcing it). */
  readonly fields: readonly string[];
  /** For a restart caused by another process's restart: that process. */
  readonly because_of: string | null;
}

/** The whole plan: field-level diff, per-process effects and the order they run in. */
export interface ChangePlan {
  readonly diff: readonly ConfigFieldChange[];
  readonly processes: readonly ProcessPlan[];
  /** Steps that change a running process, in the order they run. */
  readonly order: readonly { readonly process_name: string; readonly action: ProcessAction }[];
  /** Valid but likely to break something (a wait left on a port the change abandons). */
  readonly warnings: readonly ChangeWarning[];
}

/** What the planner needs to know about the running stack. */
export interface PlanContext {
  /** True when the process runs (or is starting). */
  isRunning(processName: string): boolean;
  /** Hard dependencies of each process (process names), from the dependency graph. */
  dependencies(processNames: readonly string[]): Readonly<Record<string, readonly string[]>>;
}

/**
 * Fields a running process does not need a restart for: the supervisor reads them when it next
 * decides something (restart policy, health probes, stops, the waits of the next start).
 */
export const RELOAD_FREE_FIELDS: ReadonlySet<string> = new Set([
  'auto_restart',
  'restart_policy',
  'health_check',
  'stop_signal',
  'stop_timeout',
  'wait_timeout',
  'wait_for_url',
  'wait_for_tcp',
  'wait_for_dir',
  'wait_for_mounts',
  'restart_dependents',
  // Limits are written into the running cgroup (the watch path takes them at the next start).
  'memory_max',
  'memory_high',
  'cpu_max',
  'pids_max',
  'on_limit',
]);

function changedFields(before: JsonRecord, after: JsonRecord): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter(
    (key) => key !== 'enabled' && !isDeepStrictEqual(before[key], after[key]),
  );
}

function plan(
  process_name: string,
  action: ProcessAction,
  reason: string,
  fields: readonly string[] = [],
): ProcessPlan {
  return { process_name, action, reason, fields, because_of: null };
}

function planOne(
  before: ProcessEntry | undefined,
  after: ProcessEntry | undefined,
  running: boolean,
): ProcessPlan {
  const name = (after ?? before)?.process_name ?? '';
  if (after === undefined)
    return running
      ? plan(name, 'stop', 'its block is removed')
      : plan(name, 'nothing', 'its block is removed; it is not running');
  const wasEnabled = before?.block.enabled === true;
  const enabled = after.block.enabled === true;
  const fields = before === undefined ? [] : changedFields(before.block, after.block);
  if (after.self)
    return plan(
      name,
      'nothing',
      fields.length > 0 ? 'the API itself: applies at the next host start' : 'unchanged',
      fields,
    );
  if (before === undefined)
    return enabled ? plan(name, 'start', 'added enabled') : plan(name, 'nothing', 'added disabled');
  if (wasEnabled && !enabled)
    return running
      ? plan(name, 'stop', 'disabled')
      : plan(name, 'nothing', 'disabled; it is not running');
  if (!wasEnabled && enabled && !running) return plan(name, 'start', 'enabled', fields);
  const forcing = fields.filter((field) => !RELOAD_FREE_FIELDS.has(field));
  if (forcing.length > 0)
    return running
      ? plan(name, 'restart', `${forcing.join(', ')} changed`, forcing)
      : plan(name, 'nothing', `${forcing.join(', ')} changed; applies at its next start`, forcing);
  if (fields.length > 0)
    return plan(name, 'reload_free', `${fields.join(', ')} changed; no restart needed`, fields);
  return plan(name, 'nothing', 'unchanged');
}

/** Processes that depend on `name` (directly). */
function dependentsOf(
  name: string,
  dependencies: Readonly<Record<string, readonly string[]>>,
): string[] {
  return Object.entries(dependencies)
    .filter(([, needs]) => needs.includes(name))
    .map(([dependent]) => dependent);
}

/** Restarts spread to what waits on a restarted process whose block asks for it. */
function fanOut(
  plans: Map<string, ProcessPlan>,
  blocks: ReadonlyMap<string, JsonRecord>,
  dependencies: Readonly<Record<string, readonly string[]>>,
  context: PlanContext,
): void {
  const queue = [...plans.values()].filter((entry) => entry.action === 'restart');
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (blocks.get(next.process_name)?.restart_dependents !== true) continue;
    for (const dependent of dependentsOf(next.process_name, dependencies)) {
      const current = plans.get(dependent);
      if (current === undefined || !['nothing', 'reload_free'].includes(current.action)) continue;
      if (!context.isRunning(dependent)) continue;
      const restart: ProcessPlan = {
        process_name: dependent,
        action: 'restart',
        reason: `depends on ${next.process_name}, which restarts (restart_dependents)`,
        fields: current.fields,
        because_of: next.process_name,
      };
      plans.set(dependent, restart);
      queue.push(restart);
    }
  }
}

/** Dependencies first; ties in file order (dependency cycles fall back to file order). */
function dependencyOrder(
  names: readonly string[],
  dependencies: Readonly<Record<string, readonly string[]>>,
): string[] {
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string): void => {
    if (ordered.includes(name) || visiting.has(name)) return;
    visiting.add(name);
    for (const dependency of dependencies[name] ?? [])
      if (names.includes(dependency)) visit(dependency);
    visiting.delete(name);
    ordered.push(name);
  };
  for (const name of names) visit(name);
  return ordered;
}

/** The plan of turning `previous` into `next` with the stack as it runs now. */
export function planChange(
  previous: JsonRecord,
  next: JsonRecord,
  context: PlanContext,
): ChangePlan {
  const before = new Map(listProcessEntries(previous).map((entry) => [entry.process_name, entry]));
  const after = new Map(listProcessEntries(next).map((entry) => [entry.process_name, entry]));
  const names = [...new Set([...after.keys(), ...before.keys()])];
  const plans = new Map(
    names.map((name) => [
      name,
      planOne(before.get(name), after.get(name), context.isRunning(name)),
    ]),
  );
  const dependencies = context.dependencies(names.filter((name) => after.get(name)?.self !== true));
  const blocks = new Map([...after].map(([name, entry]) => [name, entry.block]));
  fanOut(plans, blocks, dependencies, context);
  const topo = dependencyOrder(names, dependencies);
  const acting = (actions: readonly ProcessAction[]) =>
    topo.filter((name) => actions.includes(plans.get(name)?.action ?? 'nothing'));
  const order = [
    ...acting(['stop'])
      .reverse()
      .map((process_name) => ({ process_name, action: 'stop' as const })),
    ...acting(['start', 'restart']).map((process_name) => ({
      process_name,
      action: plans.get(process_name)?.action ?? ('nothing' as const),
    })),
  ];
  return {
    diff: diffDocuments(previous, next),
    processes: [...plans.values()],
    order,
    warnings: staleWaits(previous, next),
  };
}
