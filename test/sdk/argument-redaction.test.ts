import test from 'ava';
import { redactConfig, restoreSecrets, SecretScrubber } from '../../sdk/index.js';

const block = {
  process_name: 'App',
  command: [
    'app',
    '--api-key=ARGSECRET-1',
    '--password',
    'ARGSECRET-2',
    '--port',
    '8080',
    '--token',
    '--verbose',
  ],
};

test('secret flag values are redacted in command arrays, both forms', (t) => {
  const shown = redactConfig({ app: block });
  t.deepEqual(shown.app.command, [
    'app',
    '--api-key=[REDACTED]',
    '--password',
    '[REDACTED]',
    '--port',
    '8080',
    '--token',
    '--verbose',
  ]);
  t.false(JSON.stringify(shown).includes('ARGSECRET'));
  // The stored block is untouched: the process still gets the real arguments.
  t.is(block.command[1], '--api-key=ARGSECRET-1');
});

test('a command written as one string, and a shell script inside an array item', (t) => {
  const shown = redactConfig({
    a: {
      process_name: 'A',
      command: 'app --client-secret "s3cr3t value" --db_password=hunter22 -v',
    },
    b: { process_name: 'B', command: ['sh', '-c', 'exec app --auth-token abcdef123 --name x'] },
  });
  t.is(shown.a.command, 'app --client-secret [REDACTED] --db_password=[REDACTED] -v');
  t.deepEqual(shown.b.command, ['sh', '-c', 'exec app --auth-token [REDACTED] --name x']);
});

test('a redacted command posted back keeps the stored secrets; changed items are taken', (t) => {
  const stored = { app: block };
  const shown = redactConfig(stored);
  t.deepEqual(restoreSecrets(shown, stored, []), stored);
  const edited = { app: { ...shown.app, command: [...shown.app.command] } };
  edited.app.command[3] = 'NEW-PASSWORD';
  edited.app.command[5] = '9090';
  const restored = restoreSecrets(edited, stored, []) as typeof stored;
  t.deepEqual(restored.app.command, [
    'app',
    '--api-key=ARGSECRET-1',
    '--password',
    'NEW-PASSWORD',
    '--port',
    '9090',
    '--token',
    '--verbose',
  ]);
  const asString = { a: { process_name: 'A', command: 'app --password=hunter22 -v' } };
  t.deepEqual(restoreSecrets(redactConfig(asString), asString, []), asString);
});

test('the scrubber knows environment values and secret argument values', (t) => {
  const scrubber = SecretScrubber.of({
    app: {
      ...block,
      env: {
        GREETING: 'ENVLEAK-5',
        PORT: '8080',
        DEBUG: 'true',
        HOME_DIR: '/home/app',
        SHORT: 'abc',
      },
    },
  });
  t.is(
    scrubber.scrub('got ENVLEAK-5 and ARGSECRET-2 and ARGSECRET-1 on 8080 true /home/app abc'),
    'got [REDACTED] and [REDACTED] and [REDACTED] on 8080 true /home/app abc',
  );
  const lines = ['plain', 'x ENVLEAK-5 y'];
  t.deepEqual(scrubber.scrubLines(lines), ['plain', 'x [REDACTED] y']);
  const clean = ['nothing here'];
  t.is(scrubber.scrubLines(clean), clean);
});
