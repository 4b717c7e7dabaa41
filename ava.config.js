// Tests run on the compiled output. STACKD_TEST_DIST lets parallel work build elsewhere
// (scripts/build-to.sh); CI and `npm test` use dist/.
const out = process.env.STACKD_TEST_DIST ?? 'dist';

export default {
  files: [`${out}/test/**/*.test.js`],
  workerThreads: false,
  concurrency: 2,
  timeout: '90s',
  environmentVariables: { STACKD_VALIDATE_RESPONSES: '1' },
};
