export default {
  files: ['dist/test/**/*.test.js'],
  workerThreads: false,
  concurrency: 2,
  timeout: '60s',
  environmentVariables: { STACKD_VALIDATE_RESPONSES: '1' },
};
