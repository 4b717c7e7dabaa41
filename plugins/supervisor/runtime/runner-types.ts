/** The contract between a process runner and its owner. */
import type { Logger, ProcessState } from '../../../sdk/index.js';
import type { LaunchCgroup, RecordedCgroup } from '../cgroups/launch-cgroup.js';
import type { LimitSpec } from '../limits/limit-fields.js';
import type { LimitBreach } from '../limits/limit-watch.js';
import type { ProcessSpec } from '../process-spec/process-spec.js';
import type { LaunchMarker, OutputSink } from './launch.js';
import type { AdoptionFacts } from './launch-records.js';
import type { PendingRestart } from '../adoption/pending-restarts.js';

/** Why a start did not end with a running process. */
export type StartFailureKind = 'config' | 'wait' | 'launch' | 'exited' | 'cancelled';

/** The result of a start: the state, and the failure when it did not end running. */
export interface StartOutcome {
  readonly state: ProcessState;
  readonly failure: { readonly kind: StartFailureKind; readonly message: string } | null;
}

/** Which host start adopted a process, and when. */
export interface AdoptionStamp {
  /** Epoch ms of the adoption. */
  readonly adopted_at: number;
  /** Epoch ms at which the adopting host started. */
  readonly adopted_by_host_start: number;
}

/** What a runner needs from its owner. */
export interface RunnerDeps {
  readonly processName: string;
  /** The spec from the current config; throws a ProcessSpecError when the block is invalid. */
  resolveSpec(): ProcessSpec;
  /** The sink for this spec's output (null when logging is suppressed). */
  openOutput(spec: ProcessSpec): OutputSink | null;
  /** Every state change. */
  onChange(state: ProcessState): void;
  readonly logger: Logger;
  /** A process that exits within this time after launch failed to start. */
  readonly startCheckMs: number;
  /** Launch identities and their durable records. */
  readonly launches: LaunchRecords;
  /** Names the configuration a launch used: a change while the host was away restarts it. */
  fingerprint?(): string;
  /** A limit was hit (notifications, the event journal). */
  onLimit?(processName: string, breach: LimitBreach): void;
  /** Per-launch cgroups (absent: none, as where the machine gives none). */
  readonly cgroups?: LaunchCgroups;
}

/** The part of the cgroup manager a runner uses. */
export interface LaunchCgroups {
  /** The cgroup of a new launch with `limits` written into it, or null when it cannot have one. */
  create(processName: string, launchId: string, limits?: LimitSpec): Promise<LaunchCgroup | null>;
  /**
   * The cgroup a previous host made for an adopted launch, or null; `recorded` is what its launch
   * record names (undefined: a record of an older host, which names none).
   */
  existing?(
    processName: string,
    launchId: string,
    recorded?: RecordedCgroup | null,
  ): Promise<LaunchCgroup | null>;
  /** Watch a running launch against its limits (null: nothing to watch). */
  watch?(
    processName: string,
    pid: number,
    cgroup: LaunchCgroup | null,
    limits: LimitSpec | undefined,
    onBreach: (breach: LimitBreach) => void,
  ): RunningLimitWatch | null;
  /** The launch of `processName` ended. */
  ended?(processName: string): void;
}

/** A started limit watch. */
export interface RunningLimitWatch {
  stop(): void;
  /** The kernel's words when it OOM-killed a member since the last look, else null. */
  kernelReason(): Promise<string | null>;
}

/** The part of the launch book a runner uses. */
export interface LaunchRecords {
  /** Settles once a previous host's leftovers are gone; every launch waits for it. */
  ready(): Promise<void>;
  newMarker(): LaunchMarker;
  /** Durable (fsync'd) before the launch is reported. */
  recorded(
    processName: string,
    pid: number,
    marker: string,
    adoption?: AdoptionFacts,
  ): Promise<void>;
  /** The launch ended for good. */
  forget(pid: number): Promise<void>;
  /** Where launches' output FIFOs go (null: ordinary pipes). */
  fifoDir(): string | null;
  /** Record (null: drop) a restart waiting out its backoff, for the next host. */
  pendingRestart(processName: string, pending: PendingRestart | null): Promise<void>;
}
