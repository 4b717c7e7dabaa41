/** Demo client: polls the demo web service (it starts only once that service answers). */
const urlIndex = process.argv.indexOf('--url');
const url = urlIndex >= 0 ? (process.argv[urlIndex + 1] ?? '') : 'http://127.0.0.1:8091/health';

setInterval(() => {
  fetch(url).then(
    (response) => console.log(`polled ${url}: ${response.status}`),
    (error: unknown) =>
      console.error(
        `poll of ${url} failed: ${error instanceof Error ? error.message : String(error)}`,
      ),
  );
}, 5000);
process.on('SIGTERM', () => process.exit(0));
