/**
 * Password hashing with scrypt from node:crypto (docs/decisions.md §6). A stored hash carries its own
 * parameters and salt (`scrypt$<log2 N>$<r>$<p>$<salt>$<key>`, base64url), so raising the cost
 * later keeps old hashes verifiable. Comparison is constant-time.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const SCHEME = 'scrypt';
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 64;

function deriveKey(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: ScryptOptions,
): Promise<Buffer> {
  const { N = 1 << 14, r = BLOCK_SIZE, p = PARALLELISM } = options;
  // scrypt needs about 128 * N * r bytes; leave head-room above node's 32 MiB default.
  const maxmem = 256 * N * r * p + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, { N, r, p, maxmem }, (error, key) =>
      error === null ? resolve(key) : reject(error),
    );
  });
}

interface ParsedHash {
  readonly costLog2: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Buffer;
  readonly key: Buffer;
}

function parseHash(encoded: string): ParsedHash | undefined {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== SCHEME) return undefined;
  const [costLog2, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![costLog2, r, p].every((value) => Number.isInteger(value) && value > 0)) return undefined;
  if (costLog2 > 24 || r > 32 || p > 16) return undefined;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const key = Buffer.from(parts[5] ?? '', 'base64url');
  if (salt.length === 0 || key.length === 0) return undefined;
  return { costLog2, r, p, salt, key };
}

/** Hashes and verifies passwords; `costLog2` is scrypt's N as a power of two for new hashes. */
export class PasswordHasher {
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly costLog2 = 15) {}

  /** A fresh salted hash of `password`. */
  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await deriveKey(password, salt, KEY_BYTES, {
      N: 1 << this.costLog2,
      r: BLOCK_SIZE,
      p: PARALLELISM,
    });
    return [
      SCHEME,
      this.costLog2,
      BLOCK_SIZE,
      PARALLELISM,
      salt.toString('base64url'),
      key.toString('base64url'),
    ].join('$');
  }

  /** True when `password` matches `encoded`; false for a wrong password or a malformed hash. */
  async verify(password: string, encoded: string): Promise<boolean> {
    const parsed = parseHash(encoded);
    if (parsed === undefined) return false;
    const key = await deriveKey(password, parsed.salt, parsed.key.length, {
      N: 1 << parsed.costLog2,
      r: parsed.r,
      p: parsed.p,
    });
    return timingSafeEqual(key, parsed.key);
  }

  /**
   * Spend the same time as a real check and answer false: used for unknown usernames so the
   * response time does not tell which usernames exist.
   */
  async verifyAgainstNothing(password: string): Promise<false> {
    this.dummyHash ??= this.hash(randomBytes(18).toString('base64url'));
    await this.verify(password, await this.dummyHash);
    return false;
  }
}
