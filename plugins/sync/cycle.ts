/**
 * One poll cycle: list the primary, create what each subordinate misses, retry failures after
 * the delay, and propagate deletions only after a complete, successful listing. Pure of HTTP
 * routing; the remotes come in as clients.
 */
import { isoSeconds } from '../../sdk/index.js';
import { RemoteError, type RemoteClient, type RemoteRequest } from './remote.js';
import { failedKey, type SyncState } from './state.js';

export interface CycleInput {
  readonly primary: RemoteClient;
  readonly subordinates: ReadonlyMap<string, RemoteClient>;
  readonly retryDelayMs: number;
  readonly sync4k: boolean;
  readonly now: () => number;
  /**
   * admin: requests are created with the API key's admin; email_match: as the subordinate's user
   * with the same e-mail as the primary's requester (the admin when there is none).
   */
  readonly userMapping?: 'admin' | 'email_match';
  /**
   * How long one subordinate may spend in a cycle. Past it, its remaining work waits for the
   * next poll, so a slow subordinate delays neither the next poll nor the others' copies.
   */
  readonly budgetMs?: number;
  /** Called when a subordinate stopped at its budget with work left (the caller polls again soon). */
  readonly onOutOfTime?: () => void;
}

export const fingerprintOf = (request: RemoteRequest) =>
  `${request.mediaType}:${request.tmdbId}:${request.is4k}`;

/** Merge TV requests of the same fingerprint: their seasons are united, not dropped. */
function byFingerprint(
  requests: readonly RemoteRequest[],
  sync4k: boolean,
): Map<string, RemoteRequest> {
  const out = new Map<string, RemoteRequest>();
  for (const request of requests) {
    if (request.is4k && !sync4k) continue;
    const key = fingerprintOf(request);
    const seen = out.get(key);
    if (seen === undefined) out.set(key, { ...request, seasons: [...request.seasons] });
    else seen.seasons = [...new Set([...seen.seasons, ...request.seasons])].sort((a, b) => a - b);
  }
  return out;
}

/** Run one cycle on `state` (mutated). Returns whether anything changed. Throws when the primary fails. */
export async function runCycle(state: SyncState, input: CycleInput): Promise<boolean> {
  const listed = byFingerprint(await input.primary.listAll(), input.sync4k);
  const deadline = input.now() + (input.budgetMs ?? Number.POSITIVE_INFINITY);
  const outOfTime = () => {
    if (input.now() < deadline) return false;
    input.onOutOfTime?.();
    return true;
  };
  let changed = false;
  const work = [...input.subordinates].map(async ([subId, client]) => {
    // Fetched once per cycle, on first need; a failure falls back to the admin.
    let users: Promise<Map<string, number>> | undefined;
    const userFor = async (request: RemoteRequest): Promise<number | undefined> => {
      if (input.userMapping !== 'email_match' || request.requestedByEmail === undefined)
        return undefined;
      users ??= client.usersByEmail().catch(() => new Map<string, number>());
      return (await users).get(request.requestedByEmail.toLowerCase());
    };
    for (const [fingerprint, request] of listed) {
      const tracked = (state.requests[fingerprint] ??= {
        primary_id: request.id,
        subordinates: {},
      });
      if (tracked.primary_id !== request.id) {
        tracked.primary_id = request.id;
        changed = true;
      }
      if (tracked.subordinates[subId] !== undefined) continue;
      if (outOfTime()) return;
      const key = failedKey(fingerprint, subId);
      const failure = state.failed[key];
      if (failure !== undefined && input.now() - Date.parse(failure.failed_at) < input.retryDelayMs)
        continue;
      try {
        const created = await client.create(request, undefined, await userFor(request));
        tracked.subordinates[subId] = {
          id: created.id,
          status: created.status,
          synced_at: isoSeconds(input.now()),
        };
        delete state.failed[key];
      } catch (error) {
        state.failed[key] = {
          failed_at: isoSeconds(input.now()),
          error: (error as Error).message,
          media_type: request.mediaType,
          tmdb_id: request.tmdbId,
        };
        changed = true;
        // An unreachable subordinate would cost a timeout per request: leave it for next poll.
        if (error instanceof RemoteError && error.unreachable) return;
        continue;
      }
      changed = true;
    }
  });
  await Promise.all(work);
  return (await propagateDeletions(state, listed, input, outOfTime)) || changed;
}

/**
 * After a complete listing (listAll throws otherwise): requests gone from the primary are
 * deleted on each subordinate, each on its own so a slow one holds up nobody; their records and
 * failures are then forgotten. Returns whether anything changed.
 */
async function propagateDeletions(
  state: SyncState,
  listed: ReadonlyMap<string, RemoteRequest>,
  input: CycleInput,
  outOfTime: () => boolean,
): Promise<boolean> {
  let changed = false;
  const gone = Object.entries(state.requests).filter(([fingerprint]) => !listed.has(fingerprint));
  const deletions = [...input.subordinates].map(async ([subId, client]) => {
    for (const [, tracked] of gone) {
      const link = tracked.subordinates[subId];
      if (link === undefined) continue;
      if (outOfTime()) return;
      try {
        await client.delete(link.id);
        delete tracked.subordinates[subId];
        changed = true;
      } catch (error) {
        if (error instanceof RemoteError && error.unreachable) return;
      }
    }
  });
  await Promise.all(deletions);
  for (const [fingerprint, tracked] of gone) {
    // Links to subordinates no longer configured cannot be deleted: forget them.
    const remaining = Object.keys(tracked.subordinates).some((subId) =>
      input.subordinates.has(subId),
    );
    if (!remaining) {
      delete state.requests[fingerprint];
      changed = true;
    }
  }
  for (const key of Object.keys(state.failed)) {
    if (!listed.has(key.split('||')[0] ?? '')) {
      delete state.failed[key];
      changed = true;
    }
  }
  return changed;
}
