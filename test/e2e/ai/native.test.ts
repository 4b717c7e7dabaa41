/**
 * Native kinds against one fake server reached through the env-only endpoint override, the
 * retired-model 400, a provider timeout, and a slow call cancelled when the client goes away.
 */
import test from 'ava';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';
import { json, startFakeProvider, type FakeProvider } from './fake-provider.js';

let host: RunningHostProcess;
let fake: FakeProvider;
let slowClosed = 0;

test.before(async () => {
  fake = await startFakeProvider((received, response) => {
    if (received.body.includes('slow-model') || received.url.includes('slow-model')) {
      response.on('close', () => (slowClosed += 1));
      return; // never answers
    }
    if (received.url.startsWith('/a/models/') && received.url.endsWith(':generateContent'))
      json(response, 200, {
        candidates: [
          { content: { parts: [{ text: 'thinking', thought: true }, { text: 'A ok' }] } },
        ],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 },
      });
    else if (received.url.startsWith('/a/models'))
      json(response, 200, {
        models: [
          { name: 'models/gemini-x', supportedGenerationMethods: ['generateContent'] },
          { name: 'models/embed-x', supportedGenerationMethods: ['embedContent'] },
        ],
      });
    else if (received.url === '/b/responses')
      json(response, 200, { output_text: 'B ok', usage: { input_tokens: 3, output_tokens: 1 } });
    else if (received.url === '/b/models')
      json(response, 200, {
        data: [{ id: 'gpt-x' }, { id: 'gpt-4' }, { id: 'text-embedding-3-small' }],
      });
    else if (received.url === '/c/messages')
      json(response, 200, {
        content: [{ type: 'text', text: 'C ok' }],
        usage: { input_tokens: 4, output_tokens: 2 },
      });
    else if (received.url.startsWith('/c/models'))
      json(response, 200, { data: [{ id: 'claude-x' }] });
    else json(response, 404, { error: 'no route' });
  });
  host = await startHost({
    plugins: [builtinPlugin('ai')],
    env: {
      STACKD_AI_NATIVE_A_ENDPOINT: `${fake.url}/a`,
      STACKD_AI_NATIVE_B_ENDPOINT: `${fake.url}/b`,
      STACKD_AI_NATIVE_C_ENDPOINT: `${fake.url}/c`,
    },
  });
});
test.after.always(async () => {
  await host?.stop();
  await fake?.close();
});

const api = (path: string, body: unknown) => request(host.url, path, { body });

const cases = [
  { provider: 'gemini', model: 'gemini-x', text: 'A ok', models: ['gemini-x'], total: 7 },
  {
    provider: 'openai',
    model: 'gpt-x',
    text: 'B ok',
    models: ['gpt-4', 'gpt-x', 'text-embedding-3-small'],
    total: 4,
  },
  { provider: 'anthropic', model: 'claude-x', text: 'C ok', models: ['claude-x'], total: 6 },
] as const;

for (const entry of cases)
  test.serial(`${entry.provider}: models and test through the fixed endpoint`, async (t) => {
    const fields = { provider: entry.provider, model: entry.model, api_key: 'native-key-xyz' };
    const models = await api('/ai/models', fields);
    t.is(models.status, 200, models.text);
    t.deepEqual(
      models.body.models.map((model: { name: string }) => model.name),
      entry.models,
    );
    const tested = await api('/ai/test', fields);
    t.is(tested.status, 200, tested.text);
    t.is(tested.body.response, entry.text);
    t.is(tested.body.usage.total_tokens, entry.total);
  });

test.serial('model listings keep retired and non-text models, marked for the picker', async (t) => {
  const models = await api('/ai/models', { provider: 'openai', model: 'gpt-x', api_key: 'k-123' });
  t.is(models.status, 200, models.text);
  const byName = new Map(
    (models.body.models as Array<{ name: string }>).map((model) => [model.name, model]),
  );
  t.like(byName.get('gpt-4'), {
    lifecycle: { status: 'retired', replacement: 'gpt-5.6-sol', provider: 'openai' },
    compatibility: { status: 'supported', api_surface: 'responses' },
  });
  t.like(byName.get('text-embedding-3-small'), { compatibility: { status: 'unsupported' } });
  t.false('lifecycle' in (byName.get('gpt-x') ?? {}));
  const refused = await api('/ai/test', {
    provider: 'openai',
    model: 'text-embedding-3-small',
    api_key: 'k-123',
  });
  t.is(refused.status, 400);
  t.regex(refused.body.detail, /embedding or moderation/);
});

test.serial('native B sends store:false and the developer role; native A the key header', (t) => {
  const b = fake.received.find((received) => received.url === '/b/responses');
  const body = JSON.parse(b?.body ?? '{}') as { store: boolean; input: { role: string }[] };
  t.false(body.store);
  t.is(body.input[0]?.role, 'developer');
  const a = fake.received.find((received) => received.url.endsWith(':generateContent'));
  t.is(a?.headers['x-goog-api-key'], 'native-key-xyz');
});

test.serial('a retired model is rejected with 400 before any provider call', async (t) => {
  const before = fake.received.length;
  const rejected = await api('/ai/test', { provider: 'openai', model: 'gpt-5-codex' });
  t.is(rejected.status, 400);
  t.regex(rejected.body.detail, /Use gpt-5\.6-sol instead/);
  t.is(fake.received.length, before);
});

test.serial('a provider slower than the timeout → 504', async (t) => {
  const timedOut = await api('/ai/test', {
    provider: 'openai',
    model: 'slow-model',
    timeout_sec: 5,
  });
  t.is(timedOut.status, 504, timedOut.text);
  t.is(timedOut.body.code, 'AI_PROVIDER_TIMEOUT');
});

test.serial('a slow call is cancelled when the client goes away', async (t) => {
  const closedBefore = slowClosed;
  const controller = new AbortController();
  const pending = fetch(new URL('/ai/test', host.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ provider: 'anthropic', model: 'slow-model', timeout_sec: 300 }),
    signal: controller.signal,
  }).catch(() => undefined);
  await eventually(() => fake.received.filter((r) => r.body.includes('slow-model')).length >= 2);
  controller.abort();
  await pending;
  await eventually(() => slowClosed > closedBefore);
  t.true(slowClosed > closedBefore);
});
