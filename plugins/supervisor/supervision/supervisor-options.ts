/** What the supervisor is built from: its settings and the host's services it reports to. */
import type { JsonRecord, Logger, ProcessState } from '../../../sdk/index.js';
import type { SupervisorConfig } from '../config.js';
import type { LogLineBus } from '../logs/log-line-bus.js';
import type { ListExtras } from '../views/process-view.js';
import type { LimitBreach } from '../limits/limit-watch.js';
import type { LaunchCgroups, LaunchRecords } from '../runtime/runner-types.js';
import type { Adopter } from '../adoption/adopt-leftovers.js';

/** What the supervisor is built from. */
export interface SupervisorOptions {
  readonly dataDir: string;
  readonly config: SupervisorConfig;
  /** The current configuration document. */
  readonly readDocument: () => JsonRecord;
  readonly logger: Logger;
  readonly bus: LogLineBus;
  /** Every state change of every process. */
  readonly onChange: (state: ProcessState) => void;
  /** Environment merged under every block's env (default: the host's). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Launch identities and their durable records. */
  readonly launches: LaunchRecords;
  /** Per-launch cgroups (absent: none). */
  readonly cgroups?: LaunchCgroups;
  /** A limit of a process was hit. */
  readonly onLimit?: (processName: string, breach: LimitBreach) => void;
  /** Tree usage per process from the latest `processes` metrics sample (cached, never read now). */
  readonly processUsage?: (processName: string, pid: number) => ListExtras['usage'];
  /** The port the host listens on, once listening. */
  readonly listenPort?: () => number | null;
  /** What a previous host left running, to adopt at boot (absent: nothing is adopted). */
  readonly adopter?: Adopter;
}
