/**
 * `node dist/bench/scale-report.js [bench/results/scale.json]`: print the scale tables of
 * docs/performance.md (Markdown) from a scale run's results and write the SVG plot beside it
 * again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { scaleSvg } from './scale/scale-plot.js';
import { scaleMarkdown, type ScaleResults } from './scale/scale-results.js';

const file = resolve(process.argv[2] ?? 'bench/results/scale.json');
const results = JSON.parse(readFileSync(file, 'utf8')) as ScaleResults;
writeFileSync(join(dirname(file), 'scale.svg'), scaleSvg(results));
process.stdout.write(`${scaleMarkdown(results)}\n`);
