/** The last lines of a log chunk (GET /logs with `process_name` and `lines`). */
import type { LogChunk } from './log-cursor.js';

/**
 * `read` with only its last `lines` complete lines. Pieces hold whole lines, so the cut falls
 * inside one piece at most; the cursor is unchanged (the next read continues after the last line).
 */
export function lastLinesOfChunk(read: LogChunk, lines: number): LogChunk {
  const kept: string[] = [];
  let wanted = lines;
  for (let index = read.pieces.length - 1; index >= 0 && wanted > 0; index -= 1) {
    const piece = read.pieces[index] as string;
    // Each line ends with a newline: the piece's own last newline closes its last line.
    let start = piece.length - 1;
    while (wanted > 0) {
      const previous = piece.lastIndexOf('\n', start - 1);
      wanted -= 1;
      if (previous < 0) {
        start = -1;
        break;
      }
      start = previous;
    }
    kept.unshift(start < 0 ? piece : piece.slice(start + 1));
  }
  return { ...read, pieces: kept };
}
