/**
 * Command lines without a shell: a string command is split the way a POSIX shell splits words
 * (quotes and backslashes, no expansion), and `{field}` placeholders are filled from the block.
 */

/** A command or block that cannot be turned into a process; the message names the problem. */
export class ProcessSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProcessSpecError';
  }
}

/** Split a command string into words like `sh` would, without running a shell. */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let index = 0; index < command.length; index += 1) {
    const char = command.charAt(index);
    if (quote === "'") {
      if (char === "'") quote = null;
      else word += char;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === '\\' && '"\\$`'.includes(command.charAt(index + 1))) {
        index += 1;
        word += command.charAt(index);
      } else word += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\') {
      if (index + 1 < command.length) {
        index += 1;
        // A backslash-newline is a line continuation: it joins, it does not add a character.
        if (command.charAt(index) !== '\n') word += command.charAt(index);
        inWord = true;
      }
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== null) throw new ProcessSpecError(`unterminated ${quote} quote in command`);
  if (inWord) words.push(word);
  return words;
}

/** Values a placeholder may take: scalar fields of the block. */
export type PlaceholderValues = Readonly<Record<string, unknown>>;

const PLACEHOLDER = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Fill `{field}` placeholders from `values`. Only a field the block has is a placeholder: every
 * other brace (`}}` ending a `node -e` script, `{print $1}` for awk, `{unknown}`) is kept as
 * written, so commands never change under the author's feet. `{{field}}` is the escape for a
 * literal `{field}` where `field` is a real field. A placeholder naming a field that is not a
 * string, number or boolean throws, naming it and `where` it was found.
 */
export function fillPlaceholders(
  template: string,
  values: PlaceholderValues,
  where: string,
): string {
  return template.replace(
    PLACEHOLDER,
    (match, escaped: string | undefined, field: string | undefined) => {
      const name = escaped ?? field ?? '';
      if (!Object.hasOwn(values, name) || values[name] === undefined) return match;
      if (escaped !== undefined) return `{${escaped}}`;
      const value = values[name];
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        return String(value);
      throw new ProcessSpecError(
        `placeholder {${name}} in ${where}: field '${name}' is not a string, number or boolean`,
      );
    },
  );
}

/** The argv of a block's `command` (array or string), placeholders filled. */
export function commandArgv(command: unknown, values: PlaceholderValues): string[] {
  let words: string[];
  if (typeof command === 'string') words = splitCommand(command);
  else if (Array.isArray(command) && command.every((word) => typeof word === 'string'))
    words = command;
  else if (command === undefined || command === null)
    throw new ProcessSpecError('the block has no command');
  else throw new ProcessSpecError('command must be a string or an array of strings');
  if (words.length === 0 || words[0] === '') throw new ProcessSpecError('command is empty');
  return words.map((word, index) => fillPlaceholders(word, values, `command[${index}]`));
}
