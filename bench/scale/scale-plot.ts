/**
 * The scale series as an SVG: two line charts side by side, RSS (MiB) and idle CPU (%) against
 * the number of supervised processes (logarithmic axis), one line per supervisor. Plain SVG text,
 * so docs/performance.md can show it without any service or plotting library.
 */
import { round } from '../lib/stats.js';
import { SUPERVISORS, type ScaleResults, type ScaleRow } from './scale-results.js';

const WIDTH = 420;
const HEIGHT = 300;
const PAD = { left: 56, right: 16, top: 32, bottom: 44 };
const COLORS: Record<string, string> = {
  stackd: '#1f77b4',
  pm2: '#d62728',
  supervisord: '#2ca02c',
  floor: '#7f7f7f',
};

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A "nice" upper bound for an axis: 1, 2 or 5 × a power of ten at or above `max`. */
function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((step) => step * power >= max) ?? 10) * power;
}

function panel(
  rows: readonly ScaleRow[],
  field: 'rss_mib' | 'idle_cpu_percent',
  title: string,
  offsetX: number,
): string {
  const sizes = [...new Set(rows.map((row) => row.processes))].sort((a, b) => a - b);
  const minX = Math.log10(sizes[0] ?? 1);
  const maxX = Math.log10(sizes.at(-1) ?? 10);
  const spanX = maxX - minX || 1;
  const maxY = niceMax(Math.max(...rows.map((row) => row[field]).filter(Number.isFinite), 0));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (n: number): number => PAD.left + ((Math.log10(n) - minX) / spanX) * plotW;
  const y = (v: number): number => PAD.top + plotH - (v / maxY) * plotH;
  const parts: string[] = [
    `<g transform="translate(${offsetX},0)">`,
    `<text x="${WIDTH / 2}" y="18" text-anchor="middle" font-weight="bold">${escape(title)}</text>`,
    `<line x1="${PAD.left}" y1="${PAD.top + plotH}" x2="${PAD.left + plotW}" y2="${PAD.top + plotH}" stroke="#333"/>`,
    `<line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${PAD.top + plotH}" stroke="#333"/>`,
  ];
  for (const n of sizes)
    parts.push(
      `<text x="${round(x(n), 1)}" y="${PAD.top + plotH + 16}" text-anchor="middle">${n}</text>`,
    );
  for (let tick = 0; tick <= 4; tick += 1) {
    const value = (maxY * tick) / 4;
    parts.push(
      `<line x1="${PAD.left}" y1="${round(y(value), 1)}" x2="${PAD.left + plotW}" y2="${round(y(value), 1)}" stroke="#ddd"/>`,
      `<text x="${PAD.left - 6}" y="${round(y(value) + 4, 1)}" text-anchor="end">${round(value, 3)}</text>`,
    );
  }
  parts.push(
    `<text x="${PAD.left + plotW / 2}" y="${HEIGHT - 8}" text-anchor="middle">supervised processes</text>`,
  );
  for (const name of SUPERVISORS) {
    const points = rows
      .filter((row) => row.supervisor === name && Number.isFinite(row[field]))
      .sort((a, b) => a.processes - b.processes)
      .map((row) => `${round(x(row.processes), 1)},${round(y(row[field]), 1)}`);
    if (points.length === 0) continue;
    const color = COLORS[name] ?? '#000';
    parts.push(
      `<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.join(' ')}"/>`,
      ...points.map((point) => {
        const [cx, cy] = point.split(',');
        return `<circle cx="${cx}" cy="${cy}" r="3" fill="${color}"/>`;
      }),
    );
  }
  parts.push('</g>');
  return parts.join('\n');
}

/** The SVG document of `results`. */
export function scaleSvg(results: ScaleResults): string {
  const legend = SUPERVISORS.map(
    (name, index) =>
      `<rect x="${PAD.left + index * 130}" y="${HEIGHT + 4}" width="12" height="12" fill="${COLORS[name]}"/>` +
      `<text x="${PAD.left + index * 130 + 18}" y="${HEIGHT + 14}">${name}</text>`,
  ).join('\n');
  const note = `${results.date.slice(0, 16)}Z, load average ${results.load_avg_before.join(' ')}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH * 2}" height="${HEIGHT + 40}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    panel(results.rows, 'rss_mib', 'Supervisor RSS (MiB)', 0),
    panel(results.rows, 'idle_cpu_percent', 'Supervisor idle CPU (% of a core)', WIDTH),
    legend,
    `<text x="${WIDTH * 2 - 8}" y="${HEIGHT + 14}" text-anchor="end" fill="#666">${escape(note)}</text>`,
    '</svg>',
    '',
  ].join('\n');
}
