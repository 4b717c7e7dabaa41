/**
 * The supervisor's shutdown budget must fit in the host's stop budget for the plugin, with the
 * notice core gives before it runs out: otherwise the host would move on (and exit) while
 * process groups are still inside their grace time. Refused at boot, naming both fields.
 */
import { PluginConfigError, STOP_NOTICE_MS } from '../../../sdk/index.js';

/** Throws when `shutdown_budget_sec` does not fit in the host's stop budget. */
export function checkStopBudget(shutdownBudgetSec: number, hostStopBudgetMs: number): void {
  const needed = shutdownBudgetSec * 1000 + STOP_NOTICE_MS;
  if (needed <= hostStopBudgetMs) return;
  throw new PluginConfigError(
    'stackd.supervisor.shutdown_budget_sec',
    `${shutdownBudgetSec} s (+ ${STOP_NOTICE_MS} ms to kill what is left) does not fit in ` +
      `stackd.lifecycle.stop_timeout_ms (${hostStopBudgetMs} ms): lower the first or raise the second`,
  );
}
