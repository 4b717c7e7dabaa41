/** The figures every benchmark area reports, their goals, and the stdout table. */

/** A goal a figure must meet: `value op limit`. */
export interface Goal {
  readonly op: '<' | '<=' | '>=';
  readonly limit: number;
}

/** One reported figure. */
export interface Figure {
  readonly area: string;
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly goal?: Goal;
  /** Filled by {@link judge}: whether the goal is met (absent without a goal). */
  readonly pass?: boolean;
  readonly note?: string;
  /** The rounds disagree by more than the margin to the goal: no verdict either way. */
  readonly noiseBound?: boolean;
}

/** A figure, judged against its goal when it has one. */
export function figure(
  area: string,
  name: string,
  value: number,
  unit: string,
  extra: { goal?: Goal; note?: string } = {},
): Figure {
  const { goal, note } = extra;
  const base = { area, name, value, unit, ...(note === undefined ? {} : { note }) };
  if (goal === undefined) return base;
  const pass =
    Number.isFinite(value) &&
    (goal.op === '<'
      ? value < goal.limit
      : goal.op === '<='
        ? value <= goal.limit
        : value >= goal.limit);
  return { ...base, goal, pass };
}

function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return 'n/a';
  const text = Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : String(value);
  return unit === '×' ? `${text}×` : `${text} ${unit}`;
}

function goalText(goal: Goal | undefined, unit: string): string {
  return goal === undefined ? '' : `${goal.op} ${formatValue(goal.limit, unit)}`;
}

/** The figures as a Markdown table (readable on a terminal too). */
export function markdownTable(figures: readonly Figure[]): string {
  const rows = figures.map((item) => [
    item.area,
    item.name,
    formatValue(item.value, item.unit),
    goalText(item.goal, item.unit),
    item.noiseBound === true
      ? 'noise-bound'
      : item.pass === undefined
        ? ''
        : item.pass
          ? 'pass'
          : '**short**',
    item.note ?? '',
  ]);
  const header = ['area', 'measure', 'value', 'goal', '', 'note'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join(
    '\n',
  );
}
