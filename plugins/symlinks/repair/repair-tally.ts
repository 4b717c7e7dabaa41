/**
 * What a repair run counts and lists as it goes (capped lists, so a huge tree cannot blow up the
 * answer), its progress reports, and the undo entries its backup manifest is written from.
 */
import { CappedList } from '../result-list.js';
import type { RewriteRule } from './presets.js';

/** A rewrite made (or planned on a dry run). */
export interface LinkChange {
  readonly link_path: string;
  readonly old_target: string;
  readonly new_target: string;
  readonly matched_rule: RewriteRule;
}

/** A migration made (or planned). */
export interface LinkMove {
  readonly from_root: string;
  readonly to_root: string;
  readonly source_path: string;
  readonly target_path: string;
  readonly operation: 'move' | 'copy';
}

/** A link that could not be handled. */
export interface RepairError {
  readonly link_path?: string;
  readonly source_path?: string;
  readonly target_path?: string;
  readonly error: string;
}

/** Progress of a running repair (the job's `progress`). */
export interface RepairProgress {
  readonly stage: 'collecting' | 'processing' | 'completed';
  readonly processed_items: number;
  readonly total_items: number;
  readonly changed: number;
  readonly moved: number;
  readonly copied: number;
  readonly errors: number;
}

/** One entry of the backup manifest: the link as it was, and the change made to it. */
export interface UndoEntry {
  readonly link_path: string;
  readonly target: string;
  readonly change: Record<string, unknown>;
}

/** Links seen between two progress reports while processing. */
const REPORT_EVERY = 2000;

/** The running totals of one repair. */
export class RepairTally {
  readonly changes: CappedList<LinkChange>;
  readonly moves: CappedList<LinkMove>;
  readonly errors: CappedList<RepairError>;
  readonly undo: UndoEntry[] = [];
  readonly counts = {
    scanned: 0,
    unchanged: 0,
    nonexistent: 0,
    existingDestination: 0,
    moved: 0,
    copied: 0,
  };
  private lastReport = 0;

  constructor(
    maxListed: number,
    /** True when the run changes links and a backup manifest was asked for. */
    readonly keepUndo: boolean,
    private readonly onProgress?: (progress: RepairProgress) => void,
  ) {
    this.changes = new CappedList<LinkChange>(maxListed);
    this.moves = new CappedList<LinkMove>(maxListed);
    this.errors = new CappedList<RepairError>(maxListed);
  }

  report(stage: RepairProgress['stage']): void {
    this.onProgress?.({
      stage,
      processed_items: this.counts.scanned,
      total_items: this.counts.scanned,
      changed: this.changes.total,
      moved: this.counts.moved,
      copied: this.counts.copied,
      errors: this.errors.total,
    });
  }

  /** A `processing` report once enough links went by since the last one. */
  reportNow(): void {
    if (this.counts.scanned - this.lastReport < REPORT_EVERY) return;
    this.lastReport = this.counts.scanned;
    this.report('processing');
  }

  recordChange(change: LinkChange): void {
    this.changes.push(change);
    if (this.keepUndo)
      this.undo.push({
        link_path: change.link_path,
        target: change.old_target,
        change: {
          link_path: change.link_path,
          old_target: change.old_target,
          new_target: change.new_target,
        },
      });
  }

  recordMove(move: LinkMove, oldTarget: string): void {
    this.moves.push(move);
    if (move.operation === 'copy') this.counts.copied += 1;
    else this.counts.moved += 1;
    if (this.keepUndo)
      this.undo.push({
        link_path: move.target_path,
        target: oldTarget,
        change: {
          source_path: move.source_path,
          target_path: move.target_path,
          old_target: oldTarget,
          operation: move.operation,
        },
      });
  }
}

/** The sentence an error of a link operation is reported with. */
export function failureText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const text = error instanceof Error ? error.message : String(error);
  return code === 'EXDEV'
    ? 'Destination is on another file system; a link cannot be moved there.'
    : text;
}
