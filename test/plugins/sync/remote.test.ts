/** A request manager's API against a fake instance on 127.0.0.1: paging, 409 links, probe, errors. */
import test from 'ava';
import { RemoteClient, RemoteError } from '../../../plugins/sync/remote.js';
import { OutboundClient } from '../../../sdk/index.js';
import { startFakeSeerr } from '../../e2e/sync/fake-seerr.js';

const outbound = new OutboundClient();
test.after.always(() => outbound.close());

test('listAll walks every page and merges nothing; seasons and the requester come along', async (t) => {
  const fake = await startFakeSeerr('key');
  t.teardown(() => fake.close());
  for (let id = 1; id <= 230; id += 1) fake.add('movie', id);
  const tv = fake.add('tv', 999, true, [1, 3]);
  tv.requestedBy = { id: 7, email: 'Viewer@Example.org' };
  const listed = await new RemoteClient(fake.url, 'key', outbound).listAll();
  t.is(listed.length, 231);
  t.is(fake.listCalls, 3, '100 + 100 + 31');
  t.deepEqual(listed.at(-1), {
    id: tv.id,
    mediaType: 'tv',
    tmdbId: 999,
    is4k: true,
    seasons: [1, 3],
    requestedByEmail: 'Viewer@Example.org',
  });
});

test('a failed page throws (no partial listing), naming the status', async (t) => {
  const fake = await startFakeSeerr('key');
  t.teardown(() => fake.close());
  fake.add('movie', 1);
  fake.failList = true;
  const error = await t.throwsAsync(new RemoteClient(fake.url, 'key', outbound).listAll(), {
    instanceOf: RemoteError,
  });
  t.regex(error?.message ?? '', /HTTP 500/);
  t.false(error?.unreachable);
});

test('create answers the new id; a 409 links the existing request found by listing', async (t) => {
  const fake = await startFakeSeerr('key');
  t.teardown(() => fake.close());
  const client = new RemoteClient(fake.url, 'key', outbound);
  const request = { id: 50, mediaType: 'tv', tmdbId: 12, is4k: false, seasons: [] };
  const created = await client.create(request, undefined, 4);
  t.is(created.status, 201);
  t.is(fake.requests[0]?.id, created.id);
  t.deepEqual(fake.creates[0], { mediaType: 'tv', mediaId: 12, is4k: false, seasons: 'all' });
  t.is(fake.createdAs[0], '4', 'asUser is sent as X-API-User');
  const again = await client.create(request);
  t.deepEqual(again, { id: created.id, status: 409 });
  t.is(fake.requests.length, 1);
});

test('a failed create throws; delete tolerates a request already gone', async (t) => {
  const fake = await startFakeSeerr('key');
  t.teardown(() => fake.close());
  const client = new RemoteClient(fake.url, 'key', outbound);
  fake.failCreate = true;
  await t.throwsAsync(
    client.create({ id: 1, mediaType: 'movie', tmdbId: 1, is4k: false, seasons: [] }),
    { instanceOf: RemoteError, message: /create failed: HTTP 500/ },
  );
  const existing = fake.add('movie', 2);
  await client.delete(existing.id);
  t.is(fake.requests.length, 0);
  await t.notThrowsAsync(client.delete(existing.id));
});

test('usersByEmail maps lower-cased e-mails to ids', async (t) => {
  const fake = await startFakeSeerr('key');
  t.teardown(() => fake.close());
  fake.users.push({ id: 1, email: 'Admin@Example.org' }, { id: 2, email: 'b@example.org' });
  const users = await new RemoteClient(fake.url, 'key', outbound).usersByEmail();
  t.deepEqual(
    [...users],
    [
      ['admin@example.org', 1],
      ['b@example.org', 2],
    ],
  );
});

test('probe needs a working key; an instance that is down is unreachable', async (t) => {
  const fake = await startFakeSeerr('key');
  t.deepEqual(await new RemoteClient(fake.url, 'key', outbound).probe(), { version: '1.2.3' });
  await t.throwsAsync(new RemoteClient(fake.url, 'wrong', outbound).probe(), {
    instanceOf: RemoteError,
    message: /HTTP 401 \(check the API key\)/,
  });
  const url = fake.url;
  await fake.close();
  const error = await t.throwsAsync(new RemoteClient(url, 'key', outbound).probe(), {
    instanceOf: RemoteError,
  });
  t.true(error?.unreachable);
});

test('a base URL with a path prefix is kept in front of every API path', async (t) => {
  const fake = await startFakeSeerr('key');
  t.teardown(() => fake.close());
  const error = await t.throwsAsync(
    new RemoteClient(`${fake.url}/prefix/`, 'key', outbound).listAll(),
    { instanceOf: RemoteError },
  );
  t.regex(error?.message ?? '', /HTTP 404/, 'the fake serves only /api/v1: the prefix reached it');
});
