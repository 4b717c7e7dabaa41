import test from 'ava';
import { dirname, join } from 'node:path';
import { SHIPPED_RULES } from './prometheus-server.js';
import { run } from './support.js';

test('promtool checks the shipped alerting rules and runs their unit tests', async (t) => {
  const checked = await run('promtool', ['check', 'rules', SHIPPED_RULES]);
  t.is(checked.code, 0, checked.output);
  t.regex(checked.output, /SUCCESS: 6 rules found/);
  const tested = await run('promtool', [
    'test',
    'rules',
    join(dirname(SHIPPED_RULES), 'alerts.test.yml'),
  ]);
  t.is(tested.code, 0, tested.output);
  t.regex(tested.output, /SUCCESS/);
});
