/**
 * A light check of Python source, since it cannot be run safely: strings (with prefixes and
 * triple quotes) must be closed, brackets balanced and matched, outside comments and strings.
 * It does not parse Python: an invalid file can pass; a file failing this is invalid.
 */
import type { FormatProblem } from './format-problem.js';

const CLOSING: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };

/** The first problem, or null. */
export function checkPython(text: string): FormatProblem | null {
  const open: Array<{ char: string; line: number }> = [];
  let line = 1;
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === '\n') {
      line += 1;
      index += 1;
    } else if (char === '#') {
      while (index < text.length && text[index] !== '\n') index += 1;
    } else if (char === '"' || char === "'") {
      const triple = text.startsWith(char.repeat(3), index);
      const quote = triple ? char.repeat(3) : char;
      const startLine = line;
      index += quote.length;
      for (;;) {
        if (index >= text.length) return { line: startLine, message: 'unterminated string' };
        const current = text[index] as string;
        if (current === '\\') {
          if (text[index + 1] === '\n') line += 1;
          index += 2;
          continue;
        }
        if (text.startsWith(quote, index)) {
          index += quote.length;
          break;
        }
        if (current === '\n') {
          if (!triple) return { line: startLine, message: 'unterminated string' };
          line += 1;
        }
        index += 1;
      }
    } else if (char === '(' || char === '[' || char === '{') {
      open.push({ char, line });
      index += 1;
    } else if (char in CLOSING) {
      const last = open.pop();
      if (last === undefined || last.char !== CLOSING[char])
        return { line, message: `unmatched '${char}'` };
      index += 1;
    } else index += 1;
  }
  const unclosed = open.pop();
  return unclosed === undefined
    ? null
    : { line: unclosed.line, message: `'${unclosed.char}' is never closed` };
}
