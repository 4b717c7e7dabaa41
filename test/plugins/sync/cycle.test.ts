/** runCycle against fake request managers: idempotence, 409 linking, no deletions after a failed page. */
import test from 'ava';
import { runCycle } from '../../../plugins/sync/cycle.js';
import { RemoteClient } from '../../../plugins/sync/remote.js';
import { emptyState } from '../../../plugins/sync/state.js';
import { startFakeSeerr } from '../../e2e/sync/fake-seerr.js';

test('many polls create each request once; a 409 links the existing request', async (t) => {
  const primary = await startFakeSeerr('p');
  const sub = await startFakeSeerr('s');
  for (let id = 1; id <= 250; id += 1) primary.add('movie', id);
  const existing = sub.add('movie', 5);
  const clients = {
    primary: new RemoteClient(primary.url, 'p'),
    sub: new RemoteClient(sub.url, 's'),
  };
  const input = {
    primary: clients.primary,
    subordinates: new Map([['s', clients.sub]]),
    retryDelayMs: 0,
    sync4k: false,
    now: Date.now,
  };
  try {
    const state = emptyState();
    t.true(await runCycle(state, input));
    const createsAfterFirst = sub.creates.length;
    t.is(createsAfterFirst, 250);
    t.is(sub.requests.length, 250);
    t.is(state.requests['movie:5:false']?.subordinates.s?.id, existing.id);
    for (let poll = 0; poll < 5; poll += 1) t.false(await runCycle(state, input));
    t.is(sub.creates.length, createsAfterFirst);

    primary.failList = true;
    primary.requests.splice(0, 100);
    await t.throwsAsync(runCycle(state, input));
    t.is(Object.keys(state.requests).length, 250);
    t.is(sub.requests.length, 250);

    primary.failList = false;
    t.true(await runCycle(state, input));
    t.is(Object.keys(state.requests).length, 150);
    t.is(sub.requests.length, 150);
  } finally {
    await Promise.all([clients.primary.close(), clients.sub.close(), primary.close(), sub.close()]);
  }
});
