/** When to restart a process after an unexpected exit: the policy's decision plus its timer. */
import type { ProcessSpec } from '../process-spec/process-spec.js';
import { RestartTracker, type RestartDecision } from '../process-spec/restart-policy.js';
import type { ExitInfo } from './launch.js';

/** The restart history and the pending restart timer of one process. */
export class RestartScheduler {
  private tracker: RestartTracker | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** Decide for an exit after a run that began at `startedAt` (epoch ms). */
  decide(spec: ProcessSpec, info: ExitInfo, startedAt: number): RestartDecision {
    this.tracker ??= new RestartTracker(spec.restartPolicy);
    this.tracker.setPolicy(spec.restartPolicy);
    return this.tracker.decide(info.at - startedAt, Date.now());
  }

  /** Run `restart` after `delayMs` (replacing a pending one). */
  schedule(delayMs: number, restart: () => void): void {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      restart();
    }, delayMs);
  }

  /** Drop the pending restart, if any. */
  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Forget the history (a manual start). */
  reset(): void {
    this.tracker?.reset();
  }
}
