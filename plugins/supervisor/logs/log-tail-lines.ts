/**
 * The earlier-generation log read (`GET /logs?name=&lines=&level=`, docs/decisions.md §5): the last N
 * complete lines of a file, optionally only those containing a level word. Reads backwards in
 * growing windows, bounded by `maxScanBytes`, never the whole of a large file.
 */
import { open } from 'node:fs/promises';
import { redactLine } from '../../../sdk/index.js';

/** Options of {@link readLastLines}. */
export interface LastLinesRequest {
  /** How many lines at most. */
  readonly lines: number;
  /** Keep only lines containing this text (case-insensitive), e.g. `ERROR`. */
  readonly level?: string;
  /** Read at most this many bytes from the end (default 8 MiB). */
  readonly maxScanBytes?: number;
}

const FIRST_WINDOW = 64 * 1024;
const DEFAULT_MAX_SCAN = 8 * 1024 * 1024;

/** The last complete lines (redacted), oldest first. A missing file gives an empty array. */
export async function readLastLines(
  file: string | null,
  request: LastLinesRequest,
): Promise<string[]> {
  if (file === null || request.lines <= 0) return [];
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return [];
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return [];
    const size = stats.size;
    const maxScan = Math.min(size, request.maxScanBytes ?? DEFAULT_MAX_SCAN);
    const wanted = request.level?.trim().toLowerCase() ?? '';
    let window = Math.min(FIRST_WINDOW, maxScan);
    for (;;) {
      const start = size - window;
      const buffer = Buffer.alloc(window);
      const { bytesRead } = await handle.read(buffer, 0, window, start);
      const lines = completeLines(buffer.toString('utf8', 0, bytesRead), start > 0);
      const matching =
        wanted === '' ? lines : lines.filter((line) => line.toLowerCase().includes(wanted));
      if (matching.length >= request.lines || window >= maxScan) {
        return matching.slice(-request.lines).map(redactLine);
      }
      window = Math.min(window * 2, maxScan);
    }
  } finally {
    await handle.close();
  }
}

/** Lines that end with a newline; the first one is dropped when the window starts mid-file. */
function completeLines(text: string, startsMidFile: boolean): string[] {
  const lastNewline = text.lastIndexOf('\n');
  if (lastNewline === -1) return [];
  const lines = text.slice(0, lastNewline).split('\n');
  if (startsMidFile) lines.shift();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}
