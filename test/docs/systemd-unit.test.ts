/** docs/stackd.service passes `systemd-analyze verify` and keeps the settings supervision needs. */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { MAIN_JS, tempDir } from '../helpers/start-host.js';

const UNIT = join(MAIN_JS, '..', '..', '..', 'docs', 'stackd.service');
const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
const verifyTest = analyze.status === 0 ? test : test.skip;

verifyTest('systemd-analyze verify accepts the unit', (t) => {
  // verify checks that ExecStart's program exists: point it at this checkout's host.
  const text = readFileSync(UNIT, 'utf8').replace(
    'ExecStart=/usr/local/bin/stackd',
    `ExecStart=${process.execPath} ${MAIN_JS}`,
  );
  t.not(text, readFileSync(UNIT, 'utf8'), 'ExecStart was rewritten');
  const copy = join(tempDir('stackd-unit-'), 'stackd.service');
  writeFileSync(copy, text);
  const result = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
  t.is(result.status, 0, result.stderr);
  t.is(result.stderr.trim(), '');
});

test('the unit stops through stackd and restarts it on failure', (t) => {
  const settings = readFileSync(UNIT, 'utf8')
    .split('\n')
    .filter((line) => /^\w+=/.test(line));
  for (const wanted of [
    'Type=simple',
    'KillMode=mixed',
    'Restart=on-failure',
    'KillSignal=SIGTERM',
  ])
    t.true(settings.includes(wanted), wanted);
  // These would break a supervisor of child processes or V8's JIT.
  for (const banned of ['MemoryDenyWriteExecute=yes', 'KillMode=none', 'KillMode=process'])
    t.false(settings.includes(banned), banned);
});
