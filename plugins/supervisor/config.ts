/**
 * The supervisor's config slice (`stackd.supervisor` in the configuration file). Every knob has
 * a default; a service block can override the per-process ones (`stop_timeout`,
 * `restart_policy`, `wait_timeout`, `health_check`).
 */
import { Type, type Static } from '../../sdk/index.js';
import { LimitDefaults } from './limits/limit-fields.js';

/** Auto-restart defaults (docs/decisions.md §14); a block's `restart_policy` overrides any field. */
export const RestartPolicyConfig = Type.Object({
  enabled: Type.Boolean({
    default: true,
    description:
      'Restart processes that exit unexpectedly (a block sets auto_restart: false to opt out).',
  }),
  base_sec: Type.Number({ minimum: 0, default: 1, description: 'First backoff delay.' }),
  factor: Type.Number({ minimum: 1, default: 2, description: 'Backoff multiplier per attempt.' }),
  max_sec: Type.Number({ minimum: 0, default: 60, description: 'Backoff cap.' }),
  reset_after_sec: Type.Number({
    minimum: 0,
    default: 30,
    description: 'Uptime after which the backoff starts again from base_sec.',
  }),
  max_restarts: Type.Integer({
    minimum: 0,
    default: 5,
    description: 'Automatic restarts allowed within window_seconds before giving up (crashed).',
  }),
  window_seconds: Type.Number({ minimum: 1, default: 300 }),
});
/** Type of {@link RestartPolicyConfig}. */
export type RestartPolicyConfig = Static<typeof RestartPolicyConfig>;

/** The plugin's config schema. */
export const SupervisorConfig = Type.Object({
  log_max_bytes: Type.Integer({
    minimum: 1024,
    default: 10 * 1024 * 1024,
    description: 'Size at which a process log file is rotated.',
  }),
  log_keep: Type.Integer({ minimum: 0, default: 3, description: 'Rotated log files kept.' }),
  stop_timeout_sec: Type.Number({
    minimum: 0,
    default: 10,
    description:
      'Grace time after the stop signal before the group is killed (block: stop_timeout).',
  }),
  start_check_ms: Type.Integer({
    minimum: 0,
    default: 2000,
    description: 'A process that exits within this time after launch failed to start.',
  }),
  start_response_timeout_sec: Type.Number({
    minimum: 1,
    default: 30,
    description: 'How long start/restart requests wait for running before answering 202 starting.',
  }),
  wait_budget_sec: Type.Number({
    minimum: 1,
    default: 600,
    description: 'Shared time budget of all pre-start waits of one start (block: wait_timeout).',
  }),
  shutdown_budget_sec: Type.Number({
    minimum: 1,
    default: 25,
    description: 'At host stop, every process group still alive after this is killed.',
  }),
  restart_policy: Type.Object(RestartPolicyConfig.properties, { default: {} }),
  limits: LimitDefaults,
  limit_check_ms: Type.Integer({
    minimum: 100,
    default: 2000,
    description: 'How often each process is checked against its limits.',
  }),
  limit_checks: Type.Integer({
    minimum: 1,
    default: 2,
    description: 'Consecutive checks over memory_max or cpu_max before stackd acts (watch path).',
  }),
  cgroups: Type.Union([Type.Literal('auto'), Type.Literal('off')], {
    default: 'auto',
    description:
      'auto: each process in its own cgroup where the machine allows (stops and limits act on ' +
      'it); off: never (stops use the process group and launch marker, limits are watched).',
  }),
});
/** Type of {@link SupervisorConfig}. */
export type SupervisorConfig = Static<typeof SupervisorConfig>;
