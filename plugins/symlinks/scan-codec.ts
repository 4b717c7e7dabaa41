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
    const needed = this.length + 4 + bytes.length;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.buffer.writeUInt32LE(bytes.length, this.length);
    this.buffer.set(bytes, this.length + 4);
    this.length = needed;
    this.count += 1;
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
