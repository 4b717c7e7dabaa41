/**
 * The lexical rules shared by the Prometheus text format 0.0.4 and OpenMetrics 1.0: escaping of
 * label values and help text, sample values, and the `{name="value",…}` label set of a series.
 * A label set is rendered once when its series first appears and kept with it, so a scrape only
 * formats numbers.
 */

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
export const OPENMETRICS_CONTENT_TYPE =
  'application/openmetrics-text; version=1.0.0; charset=utf-8';

/** Metric names of stackd's own families. */
export const FAMILY_NAME = /^stackd_[a-z][a-z0-9_]*$/;
/** Label names of both formats; names starting with `__` are reserved for Prometheus. */
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

const NEEDS_ESCAPE = /[\\"\n]/;

/** A label value with `\`, `"` and line feeds escaped (both formats). */
export function escapeLabelValue(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/**
 * Help text escaped: `\` and line feeds in the text format; OpenMetrics escapes `"` as well
 * (its help is an escaped string like a label value).
 */
export function escapeHelp(help: string, openMetrics: boolean): string {
  const escaped = help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
  return openMetrics ? escaped.replace(/"/g, '\\"') : escaped;
}

/** A sample value: integers and floats as JavaScript prints them, `NaN`, `+Inf`, `-Inf`. */
export function formatValue(value: number): string {
  if (Number.isFinite(value)) return String(value);
  if (Number.isNaN(value)) return 'NaN';
  return value > 0 ? '+Inf' : '-Inf';
}

/** Throws unless `names` are valid, distinct, unreserved label names. */
export function checkLabelNames(family: string, names: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (!LABEL_NAME.test(name) || name.startsWith('__'))
      throw new Error(`label '${name}' of '${family}' is not a valid Prometheus label name`);
    if (seen.has(name)) throw new Error(`label '${name}' of '${family}' is declared twice`);
    seen.add(name);
  }
}

type LabelValues = Readonly<Record<string, string | number>>;

/** `name="value",…` for the declared names present in `labels` (no braces; '' when none). */
export function innerLabelText(names: readonly string[], labels: LabelValues): string {
  let text = '';
  for (const name of names) {
    const value = labels[name];
    if (value === undefined) continue;
    if (text !== '') text += ',';
    text += `${name}="${escapeLabelValue(String(value))}"`;
  }
  return text;
}

/**
 * The key of a label set within a family: the values in declaration order. One label's key is its
 * value; several are length-prefixed so no two different sets share a key.
 */
export function labelKey(names: readonly string[], labels: LabelValues): string {
  if (names.length === 1) return String(labels[names[0] ?? ''] ?? '');
  let key = '';
  for (const name of names) {
    const value = labels[name];
    const text = value === undefined ? '' : String(value);
    key += `${value === undefined ? -1 : text.length}:${text}`;
  }
  return key;
}
