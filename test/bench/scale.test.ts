import test from 'ava';
import { rounds, stableFigure } from '../../bench/lib/stable.js';
import { scaleSvg } from '../../bench/scale/scale-plot.js';
import {
  scaleMarkdown,
  slope,
  type ScaleResults,
  type ScaleRow,
} from '../../bench/scale/scale-results.js';

const row = (
  supervisor: ScaleRow['supervisor'],
  processes: number,
  rss_mib: number,
  idle_cpu_percent = 0.1,
): ScaleRow => ({
  supervisor,
  processes,
  rss_mib,
  private_mib: rss_mib / 2,
  idle_cpu_percent,
  start_ms: processes * 2,
  restart_ms: processes * 3,
  list_p50_ms: 1,
  list_p99_ms: 2,
  list_supervisor_cpu_ms: 0.5,
});

const results: ScaleResults = {
  date: '2026-11-26T16:00:00.000Z',
  load_avg_before: [1, 2, 3],
  load_avg_after: [1, 2, 3],
  sizes: [10, 50, 200, 1000],
  idle_window_ms: 30_000,
  rows: [
    row('stackd', 10, 999), // below 50: left out of the slope
    row('stackd', 50, 80),
    row('stackd', 200, 95),
    row('stackd', 1000, 180),
    row('pm2', 50, 70),
    row('pm2', 1000, 260),
  ],
};

test('slope is least squares over 50 processes and up', (t) => {
  const stackd = slope(results.rows, 'stackd', 'rss_mib');
  t.deepEqual(stackd.sizes, [50, 200, 1000]);
  // Points (50, 80), (200, 95), (1000, 180): slope = Sxy / Sxx.
  const xs = [50, 200, 1000];
  const ys = [80, 95, 180];
  const mx = xs.reduce((a, b) => a + b) / 3;
  const my = ys.reduce((a, b) => a + b) / 3;
  const expected =
    xs.reduce((sum, x, i) => sum + (x - mx) * ((ys[i] as number) - my), 0) /
    xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
  t.true(Math.abs(stackd.value - expected) < 1e-9);
  t.is(slope(results.rows, 'pm2', 'rss_mib').value, 0.2);
  t.true(Number.isNaN(slope(results.rows, 'supervisord', 'rss_mib').value));
});

test('a verdict is given only when the rounds agree more closely than the margin', (t) => {
  const tight = stableFigure('a', 'tight', rounds([0.2, 0.21, 0.19]), '×', {
    op: '<=',
    limit: 0.3,
  });
  t.is(tight.pass, true);
  t.is(tight.noiseBound, undefined);
  const loose = stableFigure('a', 'loose', rounds([0.1, 0.28, 0.5]), '×', { op: '<=', limit: 0.3 });
  t.is(loose.noiseBound, true);
  t.is(loose.pass, undefined);
  const over = stableFigure('a', 'over', rounds([0.6, 0.61, 0.59]), '×', { op: '<=', limit: 0.3 });
  t.is(over.pass, false);
});

test('the plot draws one line per supervisor with data, and the table lists every row', (t) => {
  const svg = scaleSvg(results);
  t.true(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
  // Two panels × two supervisors with data.
  t.is(svg.match(/<polyline /g)?.length, 4);
  const table = scaleMarkdown(results);
  t.is(table.match(/^\| stackd \| \d+ \|/gm)?.length, 4);
  t.regex(table, /^\| pm2 \| 204\.8 \|/m); // 0.2 MiB per process = 204.8 KiB
});

test('the floor table compares start all and restart all with the spawn loop at each size', (t) => {
  const withFloor: ScaleResults = {
    ...results,
    floor: [
      { processes: 50, start_ms: 50, restart_ms: 100 },
      { kind: 'spawn', processes: 1000, start_ms: 1000, restart_ms: 1500 },
      {
        kind: 'launch',
        processes: 1000,
        start_ms: 1600,
        restart_ms: 2000,
        start_cpu_ms: 900,
        restart_cpu_ms: 1100,
      },
    ],
  };
  const table = scaleMarkdown(withFloor);
  // stackd's rows start 2 ms and restart 3 ms per process: 2× and 1.5× the spawn floor at 50,
  // 2× at 1,000; 1.25× and 1.5× the launch floor at 1,000.
  t.regex(table, /^\| 50 \| spawn floor \| 50 \| 100 \| 2 \| 100 \| 150 \| 1\.5 \|$/m);
  t.regex(table, /^\| 1000 \| spawn floor \| 1000 \| 2000 \| 2 \| 1500 \| 3000 \| 2 \|$/m);
  t.regex(
    table,
    /^\| 1000 \| launch floor \| 1600 \(cpu 900\) \| 2000 \| 1\.25 \| 2000 \(cpu 1100\) \| 3000 \| 1\.5 \|$/m,
  );
  t.notRegex(scaleMarkdown(results), /floor start/);
});
