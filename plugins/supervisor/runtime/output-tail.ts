/**
 * The last lines a process printed, kept to explain a failed start: "<name> failed to stay
 * running (exit code N): <the most telling line>".
 */
import { redactLine } from '../../../sdk/index.js';

const KEEP_LINES = 50;
const MAX_SUMMARY_CHARS = 500;
const ERROR_WORDS =
  /critical|error|exception|failed|failure|fatal|panic|permission denied|refused|unable to/i;
// Stack-trace noise: a frame line never explains the failure on its own.
const NOISE = /^(at |traceback \(most recent call last\)|file "|--- end of|\d+ \|)/i;

interface TailLine {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

/** A bounded tail of both output streams. */
export class OutputTail {
  private readonly lines: TailLine[] = [];
  private readonly partial: Record<'stdout' | 'stderr', string> = { stdout: '', stderr: '' };

  /** Take a chunk of output. */
  push(chunk: Buffer, stream: 'stdout' | 'stderr'): void {
    const text = this.partial[stream] + chunk.toString('utf8');
    const parts = text.split('\n');
    this.partial[stream] = (parts.pop() ?? '').slice(-MAX_SUMMARY_CHARS);
    for (const part of parts) this.add(stream, part);
  }

  /** The most telling line: error words first, stderr over stdout, the latest on a tie. */
  summary(): string | null {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.partial[stream] !== '') this.add(stream, this.partial[stream]);
      this.partial[stream] = '';
    }
    let best: { score: number; text: string } | null = null;
    for (const line of this.lines) {
      const score = (ERROR_WORDS.test(line.text) ? 100 : 0) + (line.stream === 'stderr' ? 2 : 1);
      if (best === null || score >= best.score) best = { score, text: line.text };
    }
    return best === null ? null : redactLine(best.text).slice(0, MAX_SUMMARY_CHARS);
  }

  private add(stream: 'stdout' | 'stderr', raw: string): void {
    const text = raw.replace(/\s+/g, ' ').trim();
    if (text === '' || NOISE.test(text)) return;
    this.lines.push({ stream, text });
    if (this.lines.length > KEEP_LINES) this.lines.shift();
  }
}
