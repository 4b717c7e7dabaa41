/**
 * A large body cut into pieces of a fixed size, each encoded into a buffer lent for the time it
 * is written, so a reply of several hundred KiB goes to the socket a piece per turn of the event
 * loop. Written at once, an 810 KiB Prometheus body held the loop ~2 ms in uWS's `end` alone
 * (the copy, and the loopback send that does the receiver's work in the sender's call), on top
 * of joining it into one buffer.
 */
import type { BodyParts } from '../../sdk/http.js';

/** The size of one piece; bodies larger than this are written in pieces. */
export const PIECE_BYTES = 64 * 1024;

/** Piece buffers kept between responses (each a fresh mapping otherwise, with its page faults). */
const KEEP_BUFFERS = 4;
const spare: Buffer[] = [];
const encoder = new TextEncoder();

/** A piece buffer, to be given back with {@link returnPieceBuffer} once written. */
export function borrowPieceBuffer(): Buffer {
  return spare.pop() ?? Buffer.allocUnsafeSlow(PIECE_BYTES);
}

export function returnPieceBuffer(buffer: Buffer): void {
  if (spare.length < KEEP_BUFFERS) spare.push(buffer);
}

/** The byte length of a body given as text, bytes or parts. */
export function bodyBytes(body: string | Uint8Array | BodyParts): number {
  if (typeof body === 'string') return Buffer.byteLength(body);
  if (body instanceof Uint8Array) return body.byteLength;
  let total = 0;
  for (const part of body)
    total += typeof part === 'string' ? Buffer.byteLength(part) : part.byteLength;
  return total;
}

/** Reads a body's parts in order into successive pieces. */
export class PieceReader {
  private index = 0;
  /** Within the current part: UTF-16 units of a string, bytes of a byte part. */
  private position = 0;
  private readonly parts: BodyParts;

  constructor(body: string | Uint8Array | BodyParts) {
    this.parts = typeof body === 'string' || body instanceof Uint8Array ? [body] : body;
  }

  /** Fill `target` with the next bytes of the body; returns how many were written. */
  fill(target: Uint8Array): number {
    let at = 0;
    while (at < target.byteLength && this.index < this.parts.length) {
      const part = this.parts[this.index] as string | Uint8Array;
      const length = typeof part === 'string' ? part.length : part.byteLength;
      if (this.position >= length) {
        this.index += 1;
        this.position = 0;
        continue;
      }
      const room = target.subarray(at);
      if (typeof part === 'string') {
        // encodeInto stops before a character that does not fit, and says how much it read.
        const text = this.position === 0 ? part : part.substring(this.position);
        const { read, written } = encoder.encodeInto(text, room);
        at += written;
        this.position += read;
        if (read === 0) break;
      } else {
        const count = Math.min(length - this.position, room.byteLength);
        room.set(part.subarray(this.position, this.position + count));
        at += count;
        this.position += count;
      }
    }
    return at;
  }
}
