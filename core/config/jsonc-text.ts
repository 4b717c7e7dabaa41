/**
 * The configuration file as text: JSON with comments and trailing commas (JSONC, as VS Code and
 * tsconfig read it), syntax errors with line, column and the line itself, and writes that edit
 * the file in place so the user's comments, indentation and one-line arrays survive.
 */
import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  type Edit,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { isDeepStrictEqual } from 'node:util';
import { isJsonRecord, type JsonRecord } from '../../sdk/config.js';

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false } as const;

/** Line (1-based), column (1-based) and the text of the line holding `offset`. */
function positionOf(text: string, offset: number): { line: number; column: number; text: string } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = text.indexOf('\n', lineStart);
  const lineText = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd).replace(/\r$/, '');
  return { line, column: offset - lineStart + 1, text: lineText };
}

const MESSAGES: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'a property name in double quotes expected',
  ValueExpected: 'a value expected',
  ColonExpected: "':' expected",
  CommaExpected: "',' expected",
  CloseBraceExpected: "'}' expected",
  CloseBracketExpected: "']' expected",
  EndOfFileExpected: 'nothing expected after the document',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in a string',
};

/** `file:line:column: what` then the line and a caret under the column. */
export function describeSyntaxError(file: string, text: string, error: ParseError): string {
  const code = printParseErrorCode(error.error);
  const where = positionOf(text, Math.min(error.offset, text.length));
  const caret = `${' '.repeat(Math.max(0, where.column - 1))}^`;
  return (
    `JSON syntax error in ${file}:${where.line}:${where.column}: ${MESSAGES[code] ?? code}\n` +
    `  ${where.text}\n  ${caret}`
  );
}

/**
 * Most configuration files are plain JSON: the engine's parser reads them several times faster
 * than the JSONC parser's scanner (an 8 KiB file of 51 blocks: 7.7 ms of a boot's CPU at load 15).
 * Only when the text may hold a `__proto__` key (written as such or escaped) does it go to the
 * JSONC parser anyway: that parser assigns it (setting the object's prototype) where JSON.parse
 * makes it an own key, and the result must be the same whichever parser read the file.
 */
function plainJson(text: string): unknown {
  if (text.includes('__proto__') || text.includes('\\u')) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // comments, trailing commas or a syntax error: the JSONC parser says which
  }
}

/** Parse the configuration text (JSONC): one object, or an error naming file, line and column. */
export function parseConfigText(text: string, file: string): JsonRecord {
  const plain = plainJson(text);
  if (isJsonRecord(plain)) return plain;
  const errors: ParseError[] = [];
  const parsed: unknown = parse(text, errors, PARSE_OPTIONS);
  const [first] = errors;
  if (first !== undefined) throw new Error(describeSyntaxError(file, text, first));
  if (!isJsonRecord(parsed)) throw new Error(`${file} must hold one JSON object`);
  return parsed;
}

/** The text's indentation unit (first indented line), two spaces when none is found. */
function indentUnitOf(text: string): string {
  const match = /\n([ \t]+)\S/.exec(text);
  if (match?.[1] === undefined) return '  ';
  return match[1].startsWith('\t') ? '\t' : match[1];
}

/** The leading whitespace of the line that holds `offset`. */
function lineIndentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

const ONE_LINE_ARRAY_MAX = 80;

/** A value as JSON the way people write it: short arrays of scalars on one line. */
export function serializeValue(value: unknown, indent: string, unit: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((item) => item === null || typeof item !== 'object')) {
      const line = `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
      if (line.length <= ONE_LINE_ARRAY_MAX) return line;
    }
    const inner = indent + unit;
    const items = value.map((item) => inner + serializeValue(item, inner, unit));
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  if (isJsonRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const inner = indent + unit;
    const lines = entries.map(
      ([key, item]) => `${inner}${JSON.stringify(key)}: ${serializeValue(item, inner, unit)}`,
    );
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** JSON on one line with a space after `:` and `,`, as people type it. */
function compactJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(compactJson).join(', ')}]`;
  if (isJsonRecord(value))
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${compactJson(item)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

/** A value for an object written on one line: on one line too when it is short. */
function oneLine(value: unknown, indent: string, unit: string): string {
  const compact = compactJson(value);
  return compact.length <= ONE_LINE_ARRAY_MAX ? compact : serializeValue(value, indent, unit);
}

/** The whole document as a new file (2-space or the given unit, trailing newline). */
export function formatConfigText(document: JsonRecord, unit = '  '): string {
  return `${serializeValue(document, '', unit)}\n`;
}

function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}

/** The edit inserting `key: value` as the last property of the object `node`. */
function insertProperty(text: string, node: Node, key: string, value: unknown, unit: string): Edit {
  const objectIndent = lineIndentAt(text, node.offset);
  const children = node.children ?? [];
  const last = children[children.length - 1];
  const closeOffset = node.offset + node.length - 1;
  if (last === undefined) {
    const inner = objectIndent + unit;
    const content = `\n${inner}${JSON.stringify(key)}: ${serializeValue(value, inner, unit)}\n${objectIndent}`;
    return { offset: node.offset + 1, length: closeOffset - node.offset - 1, content };
  }
  const lastEnd = last.offset + last.length;
  const multiline = text.slice(node.offset, last.offset).includes('\n');
  const inner = multiline ? lineIndentAt(text, last.offset) : objectIndent;
  const separator = multiline ? `,\n${inner}` : ', ';
  const serialized = multiline ? serializeValue(value, inner, unit) : oneLine(value, inner, unit);
  const content = `${separator}${JSON.stringify(key)}: ${serialized}`;
  return { offset: lastEnd, length: 0, content };
}

/** Edits turning the value at `path` of `text` from `before` into `after`. */
function editsFor(
  text: string,
  tree: Node,
  path: string[],
  before: unknown,
  after: unknown,
  unit: string,
): Edit[] {
  if (isJsonRecord(before) && isJsonRecord(after)) {
    const node = findNodeAtLocation(tree, path);
    if (node?.type !== 'object') return [];
    const edits: Edit[] = [];
    for (const key of Object.keys(before)) {
      if (!(key in after)) edits.push(...modify(text, [...path, key], undefined, {}));
    }
    for (const [key, value] of Object.entries(after)) {
      if (!(key in before)) edits.push(insertProperty(text, node, key, value, unit));
      else edits.push(...editsFor(text, tree, [...path, key], before[key], value, unit));
    }
    return edits;
  }
  if (sameJson(before, after)) return [];
  const node = findNodeAtLocation(tree, path);
  if (node === undefined) return [];
  const indent = lineIndentAt(text, node.offset);
  return [
    { offset: node.offset, length: node.length, content: serializeValue(after, indent, unit) },
  ];
}

/**
 * `text` edited into `next`: only the values that changed are rewritten, so comments, layout and
 * key order elsewhere stay as the user wrote them. Falls back to a fresh layout when the text
 * does not parse.
 */
export function editConfigText(text: string, next: JsonRecord): string {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, PARSE_OPTIONS);
  const current: unknown = parse(text, [], PARSE_OPTIONS);
  const unit = indentUnitOf(text);
  if (errors.length > 0 || tree === undefined || !isJsonRecord(current))
    return formatConfigText(next, unit);
  const edits = editsFor(text, tree, [], current, next, unit);
  // Edits are computed against the same text; applyEdits sorts them and applies back to front.
  const edited = applyEdits(text, edits);
  const check: unknown = parse(edited, [], PARSE_OPTIONS);
  // A layout the edits could not handle (a duplicate key, say) is written afresh rather than wrong.
  return sameJson(check, next) ? edited : formatConfigText(next, unit);
}
