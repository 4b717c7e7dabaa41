import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { ConfigStore } from '../../../core/config/config-store.js';
import {
  PluginMetricsReader,
  PluginStack,
  Subscriptions,
} from '../../../core/plugins/plugin-resources.js';
import { ForbiddenError } from '../../../sdk/errors.js';
import type { MetricsReader } from '../../../sdk/context.js';

function store(content: Record<string, unknown>): ConfigStore {
  const path = join(mkdtempSync(join(tmpdir(), 'scope-')), 'stackd.json');
  writeFileSync(path, JSON.stringify(content));
  return new ConfigStore({ readPath: path, writePath: path, origin: 'file' }, content);
}

/** How many listeners the shared store calls on a change. */
async function listenerCalls(shared: ConfigStore): Promise<number> {
  let calls = 0;
  const probe = shared.onChange(() => (calls += 1));
  const before = calls;
  await shared.update(() => undefined);
  probe();
  return calls - before;
}

test('listeners, validators and metrics subscriptions are released when a plugin stops', async (t) => {
  const shared = store({ stackd: {} });
  let subscribed = 0;
  const feed: MetricsReader = {
    latest: () => null,
    subscribe: () => {
      subscribed += 1;
      return () => (subscribed -= 1);
    },
  };
  let changes = 0;
  for (let round = 0; round < 50; round += 1) {
    const subscriptions = new Subscriptions();
    const stack = new PluginStack(shared, 'probe', 'own-slice', subscriptions);
    stack.onChange(() => (changes += 1));
    stack.addValidator(() => undefined);
    new PluginMetricsReader(feed, subscriptions).subscribe(() => undefined);
    t.is(subscriptions.size, 3);
    subscriptions.releaseAll();
    t.is(subscriptions.size, 0);
  }
  t.is(subscribed, 0, 'no metrics subscription outlives its plugin');
  t.is(await listenerCalls(shared), 1, 'only the probe itself listens: no growth');
  t.is(changes, 0);
});

test('an early unsubscribe is not released twice', (t) => {
  const subscriptions = new Subscriptions();
  let released = 0;
  const release = subscriptions.keep(() => (released += 1));
  release();
  release();
  subscriptions.releaseAll();
  t.is(released, 1);
});

test('a plugin may change its own slice and nothing else', async (t) => {
  const shared = store({ web: { process_name: 'Web' }, stackd: { other: { a: 1 } } });
  const stack = new PluginStack(shared, 'probe', 'own-slice', new Subscriptions());
  await stack.update((draft) => {
    (draft.stackd as Record<string, unknown>).probe = { enabled: true };
  });
  t.deepEqual((shared.read().stackd as Record<string, unknown>).probe, { enabled: true });
  for (const mutate of [
    (draft: Record<string, unknown>) => void ((draft.web as Record<string, unknown>).port = 1),
    (draft: Record<string, unknown>) =>
      void ((draft.stackd as Record<string, unknown>).other = { a: 2 }),
    (draft: Record<string, unknown>) => void (draft.extra = {}),
  ]) {
    const error = await t.throwsAsync(stack.update(mutate), { instanceOf: ForbiddenError });
    t.is(error?.code, 'CONFIG_OUTSIDE_SLICE');
  }
  t.deepEqual(shared.read().web, { process_name: 'Web' }, 'a refused update changes nothing');
});

test('a plugin with document access may change any part', async (t) => {
  const shared = store({ web: { process_name: 'Web' } });
  const stack = new PluginStack(shared, 'editor', 'document', new Subscriptions());
  await stack.update((draft) => void ((draft.web as Record<string, unknown>).port = 8080));
  t.deepEqual(shared.read().web, { process_name: 'Web', port: 8080 });
});
