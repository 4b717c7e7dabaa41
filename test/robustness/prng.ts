/**
 * A tiny seeded PRNG (mulberry32) so a fuzz run is reproduced exactly from its seed: the same
 * seed gives the same plan of requests, frames and kill moments.
 */

/** The seed of a run: `STACKD_FUZZ_SEED` when set, else a fixed default. */
export const DEFAULT_SEED = 20_261_124;

/** Read the seed from `STACKD_FUZZ_SEED` (decimal), falling back to {@link DEFAULT_SEED}. */
export function seedFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.STACKD_FUZZ_SEED;
  if (text === undefined || text.trim() === '') return DEFAULT_SEED;
  const seed = Number(text);
  if (!Number.isSafeInteger(seed)) throw new Error(`STACKD_FUZZ_SEED is not an integer: ${text}`);
  return seed;
}

/** A seeded random source with the few helpers the generators need. */
export class Prng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A new generator derived from this one (for an independent stream, e.g. one per worker). */
  fork(): Prng {
    return new Prng(Math.floor(this.next() * 4_294_967_296));
  }
}
