/** runCycle against fake request managers: idempotence, 409 linking, no deletions after a failed page. */
import test from 'ava';
import { runCycle } from '../../../plugins/sync/cycle.js';
import { RemoteClient } from '../../../plugins/sync/remote.js';
import { emptyState } from '../../../plugins/sync/state.js';
import { OutboundClient } from '../../../sdk/index.js';
import { startFakeSeerr } from '../../e2e/sync/fake-seerr.js';

const outbound = new OutboundClient();
test.after.always(() => outbound.close());

test('many polls create each request once; a 409 links the existing request', async (t) => {
  const primary = await startFakeSeerr('p');
  const sub = await startFakeSeerr('s');
  for (let id = 1; id <= 250; id += 1) primary.add('movie', id);
  const existing = sub.add('movie', 5);
  const clients = {
    primary: new RemoteClient(primary.url, 'p', outbound),
    sub: new RemoteClient(sub.url, 's', outbound),
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

test('a dead subordinate does not stop the others and is recorded as failed', async (t) => {
  const primary = await startFakeSeerr('p');
  const live = await startFakeSeerr('l');
  const dead = await startFakeSeerr('d');
  const deadUrl = dead.url;
  await dead.close();
  primary.add('movie', 1);
  primary.add('movie', 2);
  const clients = [
    new RemoteClient(primary.url, 'p', outbound),
    new RemoteClient(live.url, 'l', outbound),
    new RemoteClient(deadUrl, 'd', outbound),
  ] as const;
  try {
    const state = emptyState();
    await runCycle(state, {
      primary: clients[0],
      subordinates: new Map([
        ['live', clients[1]],
        ['dead', clients[2]],
      ]),
      retryDelayMs: 60_000,
      sync4k: false,
      now: Date.now,
    });
    t.is(live.requests.length, 2);
    const failed = Object.entries(state.failed);
    t.is(failed.length, 1);
    t.regex(failed[0]?.[0] ?? '', /\|\|dead$/);
    t.regex(failed[0]?.[1].error ?? '', /connection failed/);
  } finally {
    await Promise.all([...clients.map((client) => client.close()), primary.close(), live.close()]);
  }
});

test('email_match creates each copy as the subordinate user with the same e-mail', async (t) => {
  const primary = await startFakeSeerr('p');
  const sub = await startFakeSeerr('s');
  primary.add('movie', 1).requestedBy = { id: 7, email: 'Alice@Example.com' };
  primary.add('movie', 2).requestedBy = { id: 8, email: 'nobody@example.com' };
  primary.add('movie', 3);
  sub.users.push({ id: 1, email: 'admin@example.com' }, { id: 42, email: 'alice@example.com' });
  const clients = [
    new RemoteClient(primary.url, 'p', outbound),
    new RemoteClient(sub.url, 's', outbound),
  ] as const;
  try {
    const state = emptyState();
    await runCycle(state, {
      primary: clients[0],
      subordinates: new Map([['s', clients[1]]]),
      retryDelayMs: 0,
      sync4k: false,
      now: Date.now,
      userMapping: 'email_match',
    });
    const asUser = new Map(
      sub.creates.map((create, index) => [
        (create as { mediaId: number }).mediaId,
        sub.createdAs[index],
      ]),
    );
    t.is(asUser.get(1), '42', 'matched by e-mail, case-insensitively');
    t.is(asUser.get(2), undefined, 'no match: the admin');
    t.is(asUser.get(3), undefined, 'no requester shown: the admin');
  } finally {
    await Promise.all([clients[0].close(), clients[1].close(), primary.close(), sub.close()]);
  }
});
