/**
 * `node dist/tools/layering/main.js [root]`: prints the layering figures of the production
 * sources and fails when the sdk imports upward, a plugin imports another plugin, or files
 * import each other in a cycle. Two-way arrows between core folders are listed and fail too.
 */
import { resolve } from 'node:path';
import { readGraph } from './import-graph.js';
import { layeringReport } from './layering.js';

const root = resolve(process.argv[2] ?? '.');
const report = layeringReport(readGraph(root));
const list = (title: string, items: readonly string[]): void => {
  console.log(`${title}: ${items.length}`);
  for (const item of items) console.log(`  ${item}`);
};
list('imports from the sdk upward', report.sdkUpward);
list('cross-plugin imports', report.crossPlugin);
list('core folders importing each other', report.coreTwoWay);
list(
  'import cycles',
  report.cycles.map((cycle) => cycle.join(' ↔ ')),
);
console.log(`largest file: ${report.largestFile.path} (${report.largestFile.lines} lines)`);
const fn = report.longestFunction;
console.log(`longest function: ${fn.path} ${fn.name} (${fn.lines} lines)`);
for (const { area, largestFile, longestFunction } of report.byArea) {
  console.log(
    `  ${area}: largest file ${largestFile.path} (${largestFile.lines}), longest function ` +
      `${longestFunction.path} ${longestFunction.name} (${longestFunction.lines})`,
  );
}
const failed =
  report.sdkUpward.length +
  report.crossPlugin.length +
  report.coreTwoWay.length +
  report.cycles.length;
process.exitCode = failed > 0 ? 1 : 0;
