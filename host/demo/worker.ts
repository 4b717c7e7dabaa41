/** Demo worker: logs a line of made-up work at a steady pace. */
const everyIndex = process.argv.indexOf('--every-ms');
const everyMs = Number(everyIndex >= 0 ? process.argv[everyIndex + 1] : 2000);
let jobs = 0;

setInterval(() => {
  jobs += 1;
  const level = jobs % 10 === 0 ? 'WARNING' : 'INFO';
  console.log(`${level} processed job ${jobs} in ${(Math.random() * 90 + 10).toFixed(0)} ms`);
}, everyMs);
process.on('SIGTERM', () => {
  console.log(`worker stopping after ${jobs} jobs`);
  process.exit(0);
});
