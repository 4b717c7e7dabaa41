/**
 * The scan workers' wire format: a list of byte strings packed into one buffer (a 4-byte length
 * before each), so a batch of thousands of paths crosses threads as one transferable buffer
 * instead of thousands of cloned objects. Both sides hold a byte string as latin1 text (one
 * character per byte, lossless for any bytes): a string costs far less to make than a Buffer.
 */

/** Packs byte strings held as latin1 text. */
export class PackWriter {
  private buffer = Buffer.allocUnsafe(64 * 1024);
  private length = 0;
  count = 0;

  addLatin1(text: string): void {
    const offset = this.reserve(text.length); // may replace this.buffer: read it after
    this.buffer.write(text, offset, text.length, 'latin1');
  }

  /** Room for one item of `size` bytes after its length; the offset to write it at. */
  private reserve(size: number): number {
    const needed = this.length + 4 + size;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.buffer.writeUInt32LE(size, this.length);
    const offset = this.length + 4;
    this.length = needed;
    this.count += 1;
    return offset;
  }

  /** The packed bytes (a fresh ArrayBuffer, safe to transfer). */
  take(): Uint8Array {
    const out = new Uint8Array(this.length);
    out.set(this.buffer.subarray(0, this.length));
    this.length = 0;
    this.count = 0;
    return out;
  }
}

/**
 * Unpack as latin1 text: the whole pack becomes one string and each item a substring of it,
 * which costs far less than a Buffer view per item (the main thread decodes every link a scan
 * finds).
 */
export function unpackLatin1(packed: Uint8Array): string[] {
  const buffer = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
  const text = buffer.toString('latin1');
  const items: string[] = [];
  let offset = 0;
  while (offset + 4 <= buffer.length) {
    const length = buffer.readUInt32LE(offset);
    items.push(text.slice(offset + 4, offset + 4 + length));
    offset += 4 + length;
  }
  return items;
}

const NOT_ASCII = /[\u0080-\u00ff]/; // latin1 text holds nothing above U+00FF

/** Whether a byte string held as latin1 text is plain ASCII (then it is its own UTF-8 text). */
export function isAsciiLatin1(bytes: string): boolean {
  return !NOT_ASCII.test(bytes);
}

/** The UTF-8 reading of a byte string held as latin1 text (invalid UTF-8 shown as U+FFFD). */
export function utf8OfLatin1(bytes: string): string {
  return isAsciiLatin1(bytes) ? bytes : Buffer.from(bytes, 'latin1').toString('utf8');
}
