/**
 * GET /metrics (JSON): the latest snapshot's wire text, written once per snapshot. At a thousand
 * processes it is ~280 KB of JSON, and every request used to reshape and serialize it again
 * (~6 ms of host CPU) though it changes only once per collection interval; only `age_ms`,
 * written after it, differs between requests.
 */
import { jsonTextReply, type RawReply } from '../../../sdk/index.js';
import type { MetricsSnapshotView } from '../../../sdk/contracts/metrics-feed.js';
import { toDashboardSnapshot } from './dashboard-snapshot.js';

/** The wire text of the last snapshot asked for, without its closing brace. */
export class LatestSnapshotText {
  private view: MetricsSnapshotView | undefined;
  private open = Buffer.alloc(0);

  /** `{…snapshot, "age_ms": n}` for `view`, its age counted at `now` (epoch ms). */
  reply(view: MetricsSnapshotView, now = Date.now()): RawReply {
    if (view !== this.view) {
      const text = JSON.stringify(toDashboardSnapshot(view));
      this.open = Buffer.from(text.slice(0, -1));
      this.view = view;
    }
    const age = Math.max(0, Math.round(now - Date.parse(view.timestamp)));
    // A snapshot object always has keys, so a comma follows its last value.
    return jsonTextReply(200, [this.open, `,"age_ms":${age}}`]);
  }
}
