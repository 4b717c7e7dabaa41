/**
 * The boot step that takes over what a previous host left: each enabled process whose launch
 * the launch book verified is adopted, each one that was waiting out a restart backoff resumes
 * it, and verified leftovers nobody adopts (no longer configured, or disabled) are stopped.
 */
import { createHash } from 'node:crypto';
import type { JsonRecord, Logger } from '../../../sdk/index.js';
import type { RecordedGroup } from '../runtime/launch-records.js';
import type { ProcessRunner } from '../runtime/process-runner.js';
import type { AdoptionStamp } from '../runtime/runner-types.js';
import type { PendingRestart } from './pending-restarts.js';

/** The launch book's side of adoption. */
export interface Adopter {
  claim(processName: string): RecordedGroup | undefined;
  takePendingRestart(processName: string): Promise<PendingRestart | undefined>;
  /**
   * In the background: reap the rest (after `delayMs`, or sooner when a launch needs it), then
   * end the verified launches nobody claimed.
   */
  releaseAfterReaping(delayMs: number): void;
  /** Settles once the records are verified (what {@link claim} hands out is known). */
  verified(): Promise<void>;
  /** Epoch ms at which this host started. */
  readonly hostStartedAt: number;
}

/** How long after a boot's adoptions the leftovers of a previous host are reaped, at the latest. */
const REAP_AFTER_ADOPTION_MS = 1_000;

/** Names a process's configuration block (enabled or not does not change the launch). */
export function blockFingerprint(block: JsonRecord): string {
  const launchable = { ...block };
  delete launchable.enabled;
  return createHash('sha256').update(JSON.stringify(launchable)).digest('hex').slice(0, 32);
}

/**
 * Adopt or resume every enabled process a previous host left; returns the names whose backoff
 * was resumed (boot must not start them now).
 */
export async function adoptLeftovers(
  enabled: readonly string[],
  adopter: Adopter,
  runnerOf: (processName: string) => ProcessRunner,
  logger: Logger,
): Promise<Set<string>> {
  // Not the reaping of the rest: it scans every process on the machine, and verified launches
  // are spared by it anyway. Only what the adoptions leave unclaimed waits for it.
  await adopter.verified();
  const stamp: AdoptionStamp = {
    adopted_at: Date.now(),
    adopted_by_host_start: adopter.hostStartedAt,
  };
  const resumed = new Set<string>();
  const adoptions: Promise<void>[] = [];
  const adopted: string[] = [];
  for (const name of enabled) {
    const group = adopter.claim(name);
    if (group !== undefined) {
      adoptions.push(runnerOf(name).adopt(group, stamp));
      adopted.push(`${name} (pid ${group.pid})`);
      continue;
    }
    const pending = await adopter.takePendingRestart(name);
    if (pending === undefined) continue;
    runnerOf(name).resumeBackoff(pending);
    resumed.add(name);
  }
  await Promise.all(adoptions);
  // One line for all: a line per process was a synchronous write (and a wakeup of whatever reads
  // the host's stderr) per adoption, the largest part of each adoption on a loaded machine.
  if (adopted.length > 0)
    logger.info(`adopted ${adopted.length} process(es) left running: ${adopted.join(', ')}`);
  // Reaping the rest reads every process on the machine; nothing adopted needs it, and every
  // launch waits for it anyway: it must not hold up the host's first answers after a restart.
  adopter.releaseAfterReaping(REAP_AFTER_ADOPTION_MS);
  return resumed;
}
