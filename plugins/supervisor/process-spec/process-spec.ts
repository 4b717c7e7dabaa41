/**
 * A config entry → what it takes to run it (pure apart from reading the given env): argv with
 * placeholders filled, working dir, merged env, waits, stop signal and timeout, restart policy,
 * health check and log file. Resolved at every start, so edits to the block apply on the next
 * start. Invalid fields throw a {@link ProcessSpecError} naming the field.
 */
import { limitSpecOf, type LimitSpec } from '../limits/limit-fields.js';
import { constants } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { isJsonRecord } from '../../../sdk/index.js';
import type { JsonRecord } from '../../../sdk/index.js';
import { commandArgv, fillPlaceholders, ProcessSpecError } from './command-line.js';
import type { ProcessEntry } from '../../../sdk/index.js';
import type { SupervisorConfig } from '../config.js';
import type { RestartPolicy } from './restart-policy.js';
import { parseWaits, probeHost, type WaitItem } from '../waits/wait-specs.js';

/** Opt-in health probing of a running process. */
export interface HealthCheckSpec {
  readonly intervalMs: number;
  readonly unhealthyThreshold: number;
  /** Time after launch before the first probe. */
  readonly graceMs: number;
  readonly host: string;
  /** Ports that must accept a TCP connect. */
  readonly ports: readonly number[];
}

/** Everything needed to launch, watch and stop one process. */
export interface ProcessSpec {
  readonly processName: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The working dir may be created (it lies inside the data dir). */
  readonly createCwd: boolean;
  readonly env: Readonly<Record<string, string>>;
  readonly waits: readonly WaitItem[];
  readonly waitBudgetMs: number;
  readonly stopSignal: NodeJS.Signals;
  readonly stopTimeoutMs: number;
  /** Where stdout/stderr go, or null when the block sets `suppress_logging`. */
  readonly logFile: string | null;
  readonly autoRestart: boolean;
  readonly restartPolicy: RestartPolicy;
  readonly health: HealthCheckSpec | null;
  /** Resource limits of the whole tree (absent: none). */
  readonly limits?: LimitSpec;
}

/** What a spec is resolved against. */
export interface SpecContext {
  readonly dataDir: string;
  readonly hostEnv: Readonly<Record<string, string | undefined>>;
  readonly defaults: SupervisorConfig;
  /** The Node binary used for a command whose program is `node` (the host's own). */
  readonly nodePath: string;
}

function inDataDir(path: string, dataDir: string): string {
  return isAbsolute(path) ? path : resolve(dataDir, path);
}

/** The log file of an entry: `log_file` (relative → data dir), else `logs/<key>[_<instance>].log`. */
export function logFilePath(entry: ProcessEntry, dataDir: string): string {
  const configured = entry.block.log_file;
  if (typeof configured === 'string' && configured.trim() !== '')
    return inDataDir(configured, dataDir);
  const base =
    entry.instance_name === null ? entry.config_key : `${entry.config_key}_${entry.instance_name}`;
  return join(dataDir, 'logs', `${base.replace(/[^A-Za-z0-9._-]+/g, '_')}.log`);
}

function positiveSeconds(value: unknown, field: string, fallbackMs: number): number {
  if (value === undefined || value === null || value === '') return fallbackMs;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new ProcessSpecError(`${field} must be a number of seconds ≥ 0`);
  return Math.round(value * 1000);
}

function stopSignal(value: unknown): NodeJS.Signals {
  if (value === undefined || value === null || value === '') return 'SIGTERM';
  if (typeof value !== 'string') throw new ProcessSpecError('stop_signal must be a signal name');
  const name = value.toUpperCase().startsWith('SIG')
    ? value.toUpperCase()
    : `SIG${value.toUpperCase()}`;
  if (!Object.hasOwn(constants.signals, name))
    throw new ProcessSpecError(`stop_signal '${value}' is not a known signal`);
  return name as NodeJS.Signals;
}

function restartPolicy(block: JsonRecord, defaults: SupervisorConfig): RestartPolicy {
  const own = isJsonRecord(block.restart_policy) ? block.restart_policy : {};
  const base = defaults.restart_policy;
  const number = (key: string, fallback: number, minimum: number): number => {
    const value = own[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < minimum)
      throw new ProcessSpecError(`restart_policy.${key} must be a number ≥ ${minimum}`);
    return value;
  };
  return {
    baseSec: number('base_sec', base.base_sec, 0),
    factor: number('factor', base.factor, 1),
    maxSec: number('max_sec', base.max_sec, 0),
    resetAfterSec: number('reset_after_sec', base.reset_after_sec, 0),
    maxRestarts: Math.floor(number('max_restarts', base.max_restarts, 0)),
    windowSec: number('window_seconds', base.window_seconds, 1),
  };
}

function autoRestart(block: JsonRecord, defaults: SupervisorConfig): boolean {
  if (block.auto_restart === false) return false;
  if (isJsonRecord(block.restart_policy) && block.restart_policy.enabled === false) return false;
  return block.auto_restart === true || defaults.restart_policy.enabled;
}

function healthCheck(block: JsonRecord): HealthCheckSpec | null {
  const raw = block.health_check;
  if (raw === undefined || raw === null || raw === false) return null;
  const own = isJsonRecord(raw) ? raw : {};
  if (own.enabled === false) return null;
  const intervalMs = positiveSeconds(own.interval_sec, 'health_check.interval_sec', 30_000);
  const threshold = unhealthyThreshold(own);
  const ports = healthPorts(own, block);
  const host = typeof block.host === 'string' && block.host !== '' ? block.host : '127.0.0.1';
  return {
    intervalMs: Math.max(intervalMs, 100),
    unhealthyThreshold: threshold,
    graceMs: positiveSeconds(own.grace_sec, 'health_check.grace_sec', intervalMs),
    host: probeHost(host),
    ports,
  };
}

/** `health_check.unhealthy_threshold`: failed checks in a row before a restart (default 3). */
function unhealthyThreshold(own: JsonRecord): number {
  const threshold = own.unhealthy_threshold ?? 3;
  if (typeof threshold !== 'number' || !Number.isInteger(threshold) || threshold < 1)
    throw new ProcessSpecError('health_check.unhealthy_threshold must be an integer ≥ 1');
  return threshold;
}

/** `health_check.ports`, or the block's own `port` when it names none. */
function healthPorts(own: JsonRecord, block: JsonRecord): number[] {
  const ports = own.ports ?? (typeof block.port === 'number' ? [block.port] : []);
  if (
    !Array.isArray(ports) ||
    !ports.every((port) => Number.isInteger(port) && port > 0 && port < 65536)
  )
    throw new ProcessSpecError('health_check.ports must be a list of port numbers');
  return ports as number[];
}

/** The last host environment copied, shared by every spec made while it stays the same. */
let hostEnvCopy: Readonly<Record<string, string>> = Object.freeze({});
/** The environment object compared with the copy in this turn of the event loop, if any. */
let comparedThisTurn: object | undefined;

/**
 * The host environment as one frozen object for all specs: each spec lives as long as its launch,
 * and a copy per spec (with fresh strings: every read of `process.env` makes new ones) cost a few
 * KiB per supervised process. Compared, not copied, while nothing changed.
 *
 * Compared once per turn of the event loop: every name and value of `process.env` is a call into
 * Node (~70 µs for its 35 variables here), and a boot resolves the specs of all its adoptions in
 * one turn (51 compares were ~3.5 ms of CPU). Nothing in the host changes `process.env` between
 * two specs of one turn.
 */
function sharedHostEnv(
  hostEnv: Readonly<Record<string, string | undefined>>,
): Readonly<Record<string, string>> {
  if (hostEnv === comparedThisTurn) return hostEnvCopy;
  comparedThisTurn = hostEnv;
  setImmediate(() => (comparedThisTurn = undefined)).unref();
  let count = 0;
  let same = true;
  for (const name in hostEnv) {
    const value = hostEnv[name];
    if (value === undefined) continue;
    count += 1;
    if (same && hostEnvCopy[name] !== value) same = false;
  }
  if (same && count === Object.keys(hostEnvCopy).length) return hostEnvCopy;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(hostEnv)) if (value !== undefined) env[name] = value;
  hostEnvCopy = Object.freeze(env);
  return hostEnvCopy;
}

function mergedEnv(
  block: JsonRecord,
  context: SpecContext,
  values: JsonRecord,
): Readonly<Record<string, string>> {
  const shared = sharedHostEnv(context.hostEnv);
  if (block.env === undefined || block.env === null) return shared;
  if (!isJsonRecord(block.env)) throw new ProcessSpecError('env must be an object of strings');
  const env: Record<string, string> = { ...shared };
  for (const [name, value] of Object.entries(block.env)) {
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      throw new ProcessSpecError(`env.${name} must be a string`);
    env[name] = fillPlaceholders(String(value), values, `env.${name}`);
  }
  return env;
}

/** Resolve a process entry into a launchable spec. */
export function buildProcessSpec(entry: ProcessEntry, context: SpecContext): ProcessSpec {
  const { block } = entry;
  const values: JsonRecord = { stackd_data_dir: context.dataDir, ...block };
  const argv = commandArgv(block.command, values);
  if (argv[0] === 'node') argv[0] = context.nodePath;
  const configDir = block.config_dir;
  if (configDir !== undefined && configDir !== null && typeof configDir !== 'string')
    throw new ProcessSpecError('config_dir must be a path');
  const cwd =
    typeof configDir === 'string' && configDir.trim() !== ''
      ? inDataDir(fillPlaceholders(configDir, values, 'config_dir'), context.dataDir)
      : context.dataDir;
  const dataDirPrefix = context.dataDir.endsWith('/') ? context.dataDir : `${context.dataDir}/`;
  return {
    processName: entry.process_name,
    argv,
    cwd,
    createCwd: cwd === context.dataDir || cwd.startsWith(dataDirPrefix),
    env: mergedEnv(block, context, values),
    waits: parseWaits(block, context.dataDir),
    waitBudgetMs: positiveSeconds(
      block.wait_timeout,
      'wait_timeout',
      context.defaults.wait_budget_sec * 1000,
    ),
    stopSignal: stopSignal(block.stop_signal),
    stopTimeoutMs: positiveSeconds(
      block.stop_timeout,
      'stop_timeout',
      context.defaults.stop_timeout_sec * 1000,
    ),
    logFile: block.suppress_logging === true ? null : logFilePath(entry, context.dataDir),
    autoRestart: autoRestart(block, context.defaults),
    restartPolicy: restartPolicy(block, context.defaults),
    health: healthCheck(block),
    limits: limitsOf(block, context.defaults),
  };
}

function limitsOf(block: JsonRecord, defaults: SupervisorConfig): LimitSpec {
  try {
    return limitSpecOf(block, defaults.limits ?? {});
  } catch (error) {
    throw new ProcessSpecError(error instanceof Error ? error.message : String(error));
  }
}
