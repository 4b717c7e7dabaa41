/** Terminal output: colour only on a TTY without NO_COLOR, tables aligned on visible width. */

/** Whether a stream gets colours (NO_COLOR, FORCE_COLOR=0 and a non-TTY turn them off). */
export function colourEnabled(stream: NodeJS.WriteStream, env = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR === '0') return false;
  return stream.isTTY === true;
}

const CODES = {
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  cyan: 36,
  grey: 90,
  bold: 1,
} as const;
export type Colour = keyof typeof CODES;

/** Paints text when colours are on. */
export type Paint = (colour: Colour, text: string) => string;

export function painter(enabled: boolean): Paint {
  return enabled ? (colour, text) => `\x1b[${CODES[colour]}m${text}\x1b[0m` : (_c, text) => text;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

function visibleLength(text: string): number {
  return text.replace(ANSI, '').length;
}

/** Rows of cells as aligned lines (two spaces between columns; the last column is not padded). */
export function table(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, visibleLength(cell));
    });
  return rows.map((row) =>
    row
      .map((cell, index) =>
        index === row.length - 1
          ? cell
          : cell + ' '.repeat((widths[index] ?? 0) - visibleLength(cell)),
      )
      .join('  ')
      .trimEnd(),
  );
}

/** 3725 → "1h02m"; undefined → "-". */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '-';
  const s = Math.floor(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  if (s < 86_400)
    return `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, '0')}m`;
  return `${Math.floor(s / 86_400)}d${String(Math.floor(s / 3600) % 24).padStart(2, '0')}h`;
}

/** 52428800 → "50.0 MiB". */
export function bytes(value: number | null | undefined): string {
  if (value === null || value === undefined) return '-';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let amount = value;
  let unit = 0;
  while (amount >= 1024 && unit < units.length - 1) {
    amount /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${amount} B` : `${amount.toFixed(1)} ${units[unit]}`;
}
