/**
 * A history row from a snapshot: the whole snapshot as deflated JSON (for history reads) and its
 * compact series numbers. The stored format is one raw-deflated `JSON.stringify` of the snapshot;
 * both encoders below write exactly that, so every row, old or new, reads the same way.
 */
import { finished } from 'node:stream/promises';
import { createDeflateRaw, deflateRawSync } from 'node:zlib';
import { TurnBudget } from '../../../sdk/index.js';
import type { MetricsSnapshotView } from '../../../sdk/contracts/metrics-feed.js';
import { toSeriesRow } from './series-row.js';

/** One encoded row, ready to insert. */
export interface EncodedSnapshot {
  readonly payload: Uint8Array;
  readonly series: string;
  /** Stored bytes: the deflated payload plus the series text. */
  readonly size: number;
}

/** Encode in one go (small snapshots, tests). */
export function encodeSnapshot(snapshot: MetricsSnapshotView): EncodedSnapshot {
  const payload = new Uint8Array(deflateRawSync(JSON.stringify(snapshot)));
  return row(payload, JSON.stringify(toSeriesRow(snapshot)));
}

/**
 * Encode in turns of the event loop. With a thousand processes a snapshot is ~290 KB of JSON:
 * serializing it in one call and deflating it on the main thread held the loop for tens of ms
 * every history interval. Here each process is serialized on its own within `budget`'s turns,
 * and each turn's text goes to one deflate stream that compresses on libuv's thread pool (one
 * deflate call on the joined text still cost the loop 0.5–2 ms to set up and copy).
 */
export async function encodeSnapshotInTurns(
  snapshot: MetricsSnapshotView,
  budget = new TurnBudget(),
): Promise<EncodedSnapshot> {
  const deflater = createDeflateRaw();
  const compressed: Buffer[] = [];
  deflater.on('data', (chunk: Buffer) => compressed.push(chunk));
  const done = finished(deflater);
  const { processes, ...rest } = snapshot;
  const head = JSON.stringify(rest);
  let text = head.length > 2 ? `${head.slice(0, -1)},"processes":{` : '{"processes":{';
  const perProcess: Record<string, readonly [number, number]> = {};
  let first = true;
  for (const [name, process] of Object.entries(processes)) {
    if (budget.spent()) {
      deflater.write(text);
      text = '';
      await budget.next();
    }
    const value = JSON.stringify(process) as string | undefined;
    if (value === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(name)}:${value}`;
    first = false;
    perProcess[name] = [process.cpu_percent, process.rss_bytes];
  }
  deflater.end(`${text}}}`);
  const series = JSON.stringify({ ...toSeriesRow({ ...snapshot, processes: {} }), p: perProcess });
  await done;
  return row(new Uint8Array(Buffer.concat(compressed)), series);
}

function row(payload: Uint8Array, series: string): EncodedSnapshot {
  return { payload, series, size: payload.byteLength + Buffer.byteLength(series) };
}
