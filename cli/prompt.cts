/** Asking on the terminal: a visible line, a password without echo, or standard input. */
import { createInterface } from 'node:readline';
import { CliError, EXIT } from './errors.cjs';

/** One visible line from the terminal. */
export async function askLine(question: string): Promise<string> {
  const reader = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await new Promise<string>((resolve) => reader.question(question, resolve));
  } finally {
    reader.close();
  }
}

/** A password typed on the terminal, not echoed (the prompt goes to stderr). */
export async function askHidden(question: string): Promise<string> {
  const input = process.stdin;
  if (input.isTTY !== true)
    throw new CliError('no terminal to ask the password on: pass --password-stdin', EXIT.usage);
  // Echo off before the prompt shows: keys typed the moment it appears must not be echoed, and a
  // loaded machine can deschedule the process between the two (a tmux test caught it).
  input.setRawMode(true);
  process.stderr.write(question);
  input.resume();
  input.setEncoding('utf8');
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      const onData = (text: string): void => {
        for (const char of text) {
          if (char === '\r' || char === '\n') {
            input.off('data', onData);
            resolve(typed);
            return;
          }
          if (char === '\u0003') {
            input.off('data', onData);
            reject(new CliError('cancelled', EXIT.failed));
            return;
          }
          if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
          else if (char >= ' ') typed += char;
        }
      };
      input.on('data', onData);
    });
  } finally {
    input.setRawMode(false);
    input.pause();
    process.stderr.write('\n');
  }
}

/** Standard input up to its end, without the final newline (for --password-stdin). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
