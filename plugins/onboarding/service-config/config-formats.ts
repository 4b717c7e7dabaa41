/**
 * The formats of a service's own config file, how each is recognised, checked before a write
 * and parsed for reading. "Valid" per format:
 * - json: JSON.parse accepts it;
 * - yaml: the yaml package parses it without errors (one or more documents);
 * - xml: fast-xml-parser's validator accepts it (well-formed);
 * - conf: INI-like lines (rclone, postgresql.conf, .ini): blank, `#`/`;` comments, `[section]`,
 *   `key = value` or `key: value` with a key of letters, digits, `_ . -` (postgresql's
 *   `include 'file'` directives too);
 * - python: Python cannot be run safely here, so only a light check: no NUL, strings closed,
 *   brackets balanced (see python-check.ts). It is not a parser.
 */
import { extname } from 'node:path';
import type * as XmlLibrary from 'fast-xml-parser';
import type * as YamlLibrary from 'yaml';
import type { ServiceConfigFormat } from '../../../sdk/index.js';
import { nestingProblem } from './nesting-limit.js';
import type { FormatProblem } from './format-problem.js';
import { checkPython } from './python-check.js';

export type { FormatProblem } from './format-problem.js';

const BY_EXTENSION: Readonly<Record<string, ServiceConfigFormat>> = {
  '.json': 'json',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.xml': 'xml',
  '.conf': 'conf',
  '.config': 'conf',
  '.ini': 'conf',
  '.cfg': 'conf',
  '.py': 'python',
};

/** The format of a file: the catalog's word, else its extension; undefined when unknown. */
export function formatOf(
  file: string,
  declared: ServiceConfigFormat | undefined,
): ServiceConfigFormat | undefined {
  return declared ?? BY_EXTENSION[extname(file).toLowerCase()];
}

function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

function checkJson(text: string): FormatProblem | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(message);
    const lineColumn = /line (\d+)/.exec(message);
    const line =
      position?.[1] !== undefined
        ? lineAt(text, Number(position[1]))
        : lineColumn?.[1] !== undefined
          ? Number(lineColumn[1])
          : text.split('\n').length;
    return { line, message };
  }
}

let yamlLibrary: typeof YamlLibrary | undefined;
let xmlLibrary: typeof XmlLibrary | undefined;

/**
 * Load the YAML and XML parsers. They are only needed when a service config file is read or
 * written, so a host that never does that does not carry them (a few MB of heap).
 */
export async function loadFormatParsers(): Promise<void> {
  yamlLibrary ??= await import('yaml');
  xmlLibrary ??= await import('fast-xml-parser');
}

function loaded<T>(library: T | undefined): T {
  if (library === undefined) throw new Error('loadFormatParsers() must be awaited first');
  return library;
}

function yamlDocuments(text: string) {
  return [...loaded(yamlLibrary).parseAllDocuments(text)];
}

function checkYaml(text: string): FormatProblem | null {
  const [first] = yamlDocuments(text).flatMap((document) => document.errors);
  if (first === undefined) return null;
  return {
    line: first.linePos?.[0].line ?? 1,
    message: first.message.split('\n')[0] ?? first.message,
  };
}

function checkXml(text: string): FormatProblem | null {
  const result = loaded(xmlLibrary).XMLValidator.validate(text);
  return result === true ? null : { line: result.err.line, message: result.err.msg };
}

const CONF_LINE =
  /^\s*(?:$|[#;].*|\[[^\]]+\]\s*(?:[#;].*)?|[A-Za-z0-9_.-]+\s*[=:].*|include(?:_if_exists|_dir)?\s+\S.*)$/;

function checkConf(text: string): FormatProblem | null {
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries())
    if (!CONF_LINE.test(line))
      return {
        line: index + 1,
        message: 'expected `key = value`, `[section]`, a comment or a blank line',
      };
  return null;
}

/** The first problem of `text` as `format`, or null when it is valid. */
export function checkFormat(format: ServiceConfigFormat, text: string): FormatProblem | null {
  const nul = text.indexOf('\u0000');
  if (nul >= 0) return { line: lineAt(text, nul), message: 'NUL character' };
  const nesting = nestingProblem(format, text);
  if (nesting !== null) return { line: 1, message: nesting };
  switch (format) {
    case 'json':
      return checkJson(text);
    case 'yaml':
      return checkYaml(text);
    case 'xml':
      return checkXml(text);
    case 'conf':
      return checkConf(text);
    case 'python':
      return checkPython(text);
  }
}

function parseConf(text: string): Record<string, Record<string, string>> {
  const sections: Record<string, Record<string, string>> = {};
  let section = '';
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]/.exec(line);
    if (header?.[1] !== undefined) {
      section = header[1].trim();
      continue;
    }
    const pair = /^\s*([A-Za-z0-9_.-]+)\s*[=:]\s*(.*?)\s*$/.exec(line);
    if (pair?.[1] === undefined) continue;
    (sections[section] ??= {})[pair[1]] = pair[2] ?? '';
  }
  return sections;
}

/** The parsed structure of valid content (keys of the unnamed conf section under ""), or undefined for python. */
export function parseFormat(format: ServiceConfigFormat, text: string): unknown {
  switch (format) {
    case 'json':
      return JSON.parse(text) as unknown;
    case 'yaml': {
      // One document as itself; a multi-document stream as the list of its documents.
      const documents = yamlDocuments(text).map((document) => document.toJS() as unknown);
      if (documents.length === 0) return null;
      return documents.length === 1 ? documents[0] : documents;
    }
    case 'xml':
      return new (loaded(xmlLibrary).XMLParser)({
        ignoreAttributes: false,
        attributeNamePrefix: '@',
      }).parse(text) as unknown;
    case 'conf':
      return parseConf(text);
    case 'python':
      return undefined;
  }
}
