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
 * Encode in turns of the event loop. The payload is one `JSON.stringify` of the snapshot in a turn
 * of its own (~1 ms at a thousand processes, ~160 KB of text) deflated by one stream on libuv's
 * thread pool; the series text is written after it within `budget`'s turns. A text that large is
 * made in V8's large-object space, which scavenges never copy: serializing each process on its
 * own in turns (as this did before) made ~0.7 MB of short strings per row that lived across those
 * turns and were copied by every scavenge meanwhile (docs/performance-scale.md, "The idle tick
 * at 1,000").
 */
export async function encodeSnapshotInTurns(
  snapshot: MetricsSnapshotView,
  budget = new TurnBudget(),
  pieces = new SeriesPieces(),
): Promise<EncodedSnapshot> {
  const deflater = createDeflateRaw();
  const compressed: Buffer[] = [];
  deflater.on('data', (chunk: Buffer) => compressed.push(chunk));
  const done = finished(deflater);
  deflater.end(JSON.stringify(snapshot));
  await budget.next();
  const series = await seriesInTurns(snapshot, budget, pieces);
  await done;
  return row(new Uint8Array(Buffer.concat(compressed)), series);
}

/** A process's part of the series text and the figures it was written for. */
interface Piece {
  cpu: number;
  rss: number;
  text: string;
  /** The call that last used it: pieces of processes gone are dropped. */
  round: number;
}

/**
 * Each process's `"name":[cpu,rss]` of the previous series text, written again only when its
 * figures changed: an idle process's RSS and CPU stay the same from one row to the next, and
 * writing a thousand of them afresh made ~0.4 MB of short strings per row. Keep one per recorder.
 */
export class SeriesPieces {
  private readonly pieces = new Map<string, Piece>();
  private round = 0;

  /** Start a series text: pieces not used by the end of it are dropped. */
  begin(): void {
    this.round += 1;
  }

  /** The text of `name` with these figures, written now unless the last one still holds. */
  text(name: string, cpu: number, rss: number): string {
    let piece = this.pieces.get(name);
    if (piece === undefined) {
      piece = { cpu, rss, text: pieceText(name, cpu, rss), round: this.round };
      this.pieces.set(name, piece);
    } else if (!Object.is(piece.cpu, cpu) || !Object.is(piece.rss, rss)) {
      piece.cpu = cpu;
      piece.rss = rss;
      piece.text = pieceText(name, cpu, rss);
    }
    piece.round = this.round;
    return piece.text;
  }

  /** Drop the pieces the series just written did not use. */
  end(): void {
    this.pieces.forEach((piece, name) => {
      if (piece.round !== this.round) this.pieces.delete(name);
    });
  }
}

const pieceText = (name: string, cpu: number, rss: number): string =>
  `${JSON.stringify(name)}:[${JSON.stringify(cpu)},${JSON.stringify(rss)}]`;

/**
 * `JSON.stringify(toSeriesRow(snapshot))` written in turns without the per-process pairs: the
 * system part is the row of the snapshot without processes, whose last key is `p` (`"p":{}}`),
 * and each process adds its piece inside it. A process named `__proto__` is left out, as the
 * row's plain object (where that key sets the prototype) leaves it out.
 */
async function seriesInTurns(
  snapshot: MetricsSnapshotView,
  budget: TurnBudget,
  pieces: SeriesPieces,
): Promise<string> {
  const head = JSON.stringify(toSeriesRow({ ...snapshot, processes: {} }));
  const { processes } = snapshot;
  const names = Object.keys(processes);
  const texts: string[] = [];
  pieces.begin();
  for (let index = 0; index < names.length; index += 1) {
    if (budget.spent()) await budget.next();
    const name = names[index] ?? '';
    const process = processes[name];
    if (process === undefined || name === '__proto__') continue;
    texts.push(pieces.text(name, process.cpu_percent, process.rss_bytes));
  }
  pieces.end();
  return `${head.slice(0, -2)}${texts.join(',')}}}`;
}

function row(payload: Uint8Array, series: string): EncodedSnapshot {
  return { payload, series, size: payload.byteLength + Buffer.byteLength(series) };
}
