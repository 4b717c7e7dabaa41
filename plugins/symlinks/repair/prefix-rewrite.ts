/**
 * The first half of a repair: every link under the roots whose target starts with a rule's
 * `from_prefix` points at `to_prefix` instead. Links are handled a directory batch at a time,
 * their renames in parallel; a dry run only plans.
 */
import { rm } from 'node:fs/promises';
import { isRelinkLeftover, RELINK_LEFTOVER, replaceLink } from '../link-ops.js';
import { walkLinks, type FoundLink } from '../scan/scanner.js';
import type { RewriteRule } from './presets.js';
import type { RepairPlan, RepairRequest } from './repair-plan.js';
import { failureText, type RepairTally } from './repair-tally.js';

/** A rule that matched, and the target it gives. */
export interface RewriteMatch {
  readonly rule: RewriteRule;
  readonly target: string;
}

/** What a rewrite pass needs besides the plan. */
export interface RewriteOptions {
  readonly concurrency: number;
  readonly confines?: readonly string[];
  readonly signal?: AbortSignal;
}

/** The first rule matching a target, and the rewritten target. */
export function rewriteTarget(target: string, rules: readonly RewriteRule[]): RewriteMatch | null {
  for (const rule of rules) {
    const from = rule.from_prefix;
    if (target === from || target.startsWith(from.endsWith('/') ? from : `${from}/`)) {
      // Already under `to` when `to` lies under `from`: applying again must change nothing.
      const to = rule.to_prefix;
      if (to.startsWith(`${from}/`) && (target === to || target.startsWith(`${to}/`))) return null;
      return { rule, target: `${to}${target.slice(from.length)}` };
    }
  }
  return null;
}

/** Rewrite (or plan) every matching link under the plan's roots. */
export async function rewritePrefixes(
  request: RepairRequest,
  plan: RepairPlan,
  options: RewriteOptions,
  tally: RepairTally,
): Promise<void> {
  if (plan.rules.length === 0) return;
  const { counts } = tally;
  await walkLinks(
    plan.roots,
    async (batch, passedOver) => {
      counts.scanned += batch.length + passedOver;
      counts.unchanged += passedOver;
      const pending: Array<Promise<void>> = [];
      for (const link of batch) {
        const work = rewriteOne(link, request, plan, tally);
        if (work !== undefined) pending.push(work);
      }
      if (pending.length > 0) await Promise.all(pending);
      tally.reportNow();
    },
    {
      concurrency: options.concurrency,
      ...(options.confines === undefined ? {} : { confines: options.confines }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onError: (failure) => tally.errors.push({ link_path: failure.path, error: failure.error }),
      // Only links a rule can match (or crash leftovers) reach this thread, their targets
      // already checked by the workers.
      targetFilter: {
        targetPrefixes: plan.rules.map((rule) => rule.from_prefix),
        keepPath: RELINK_LEFTOVER,
      },
      checkTargets: !request.include_broken,
    },
  );
}

/**
 * One link. A link that needs no file system call (a dry run, or nothing to change) is settled
 * without a promise: most links of a large tree are.
 */
function rewriteOne(
  link: FoundLink,
  request: RepairRequest,
  plan: RepairPlan,
  tally: RepairTally,
): Promise<void> | undefined {
  if (isRelinkLeftover(link.path)) {
    // The new link of a rewrite a crash cut off before its rename: the old one is intact.
    return request.dry_run ? undefined : rm(link.pathBytes, { force: true }).catch(() => undefined);
  }
  const next = rewriteTarget(link.target, plan.rules);
  if (next === null || next.target === link.target) {
    tally.counts.unchanged += 1;
    return undefined;
  }
  if (!link.targetIsUtf8) {
    tally.errors.push({
      link_path: link.path,
      error: 'Target is not valid UTF-8; left unchanged.',
    });
    return undefined;
  }
  // The scan checked every target unless broken links are wanted anyway (checkTargets above).
  if (!request.include_broken && link.targetExists !== true) {
    tally.counts.nonexistent += 1;
    return undefined;
  }
  const change = {
    link_path: link.path,
    old_target: link.target,
    new_target: next.target,
    matched_rule: next.rule,
  };
  if (request.dry_run) {
    tally.recordChange(change);
    return undefined;
  }
  return replaceLink(link.pathBytes, next.target).then(
    () => tally.recordChange(change),
    (error: unknown) => {
      tally.errors.push({ link_path: link.path, error: failureText(error) });
    },
  );
}
