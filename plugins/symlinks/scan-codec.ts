/**
 * The scan workers' wire format: a list of byte strings packed into one buffer (a 4-byte length
 * before each), so a batch of thousands of paths crosses to the main thread as one transferable
 * buffer instead of thousands of cloned objects.
 */

/** Packs byte strings. */
export class PackWriter {
  private buffer = Buffer.allocUnsafe(64 * 1024);
  private length = 0;
  count = 0;

  add(bytes: Uint8Array): void {
    const offset = this.reserve(bytes.length); // may replace this.buffer: read it after
    this.buffer.set(bytes, offset);
  }

  /**
   * Add a byte string held as latin1 text (one character per byte, lossless for any bytes): the
   * scan workers read names this way because a string costs far less to make than a Buffer.
   */
  addLatin1(text: string): void {
    const offset = this.reserve(text.length);
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

/** Unpack into views of the same memory (no copies). */
export function unpack(packed: Uint8Array): Buffer[] {
  const buffer = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
  const items: Buffer[] = [];
  let offset = 0;
  while (offset + 4 <= buffer.length) {
    const length = buffer.readUInt32LE(offset);
    items.push(buffer.subarray(offset + 4, offset + 4 + length));
    offset += 4 + length;
  }
  return items;
}
