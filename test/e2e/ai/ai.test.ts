/**
 * The AI routes against a real host (ai plugin only) and fake providers (real HTTP servers):
 * settings and profiles, models, test, diagnose, stack diagnose, follow-up and provider failures.
 */
import test from 'ava';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { request } from '../../helpers/http.js';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';
import { json, startFakeProvider, type FakeProvider } from './fake-provider.js';

const SECRET_KEY = 'sk-planted-provider-key-123456';
const ENV_SECRET = 'planted-env-secret-value-987';
let host: RunningHostProcess;
let chat: FakeProvider;
let local: FakeProvider;

const chatAnswer = (text: string) => ({
  choices: [{ message: { content: text } }],
  usage: { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 },
});

test.before(async () => {
  chat = await startFakeProvider((received, response) => {
    if (received.url.endsWith('/models')) json(response, 200, { data: [{ id: 'gpt-test' }] });
    else json(response, 200, chatAnswer('chat says hello'));
  });
  local = await startFakeProvider((received, response) => {
    if (received.url === '/api/tags') json(response, 200, { models: [{ name: 'llama-test' }] });
    else
      json(response, 200, {
        message: { content: 'local says hello' },
        prompt_eval_count: 7,
        eval_count: 3,
      });
  });
  host = await startHost({
    plugins: [builtinPlugin('ai')],
    config: {
      stackd: {
        api_service: { enabled: true, process_name: 'stackd API', host: '127.0.0.1', port: 8000 },
      },
      web: {
        enabled: true,
        process_name: 'Web',
        command: ['node', '-e', '0'],
        env: { API_TOKEN: ENV_SECRET },
        api_key: 'config-planted-key-abcdef',
      },
    },
  });
});
test.after.always(async () => {
  await host?.stop();
  await chat?.close();
  await local?.close();
});

const api = (path: string, body?: unknown, method?: string) =>
  request(host.url, path, { body, ...(method === undefined ? {} : { method }) });

test.serial('profiles: create (active), key write-only and encrypted at rest 0600', async (t) => {
  const saved = await api('/ai/profiles', {
    name: 'Chat',
    provider: 'chat_compatible',
    base_url: `${chat.url}/v1`,
    model: 'gpt-test',
    api_key: SECRET_KEY,
    timeout_sec: 10,
  });
  t.is(saved.status, 200, saved.text);
  t.is(saved.body.provider, 'chat_compatible');
  t.is(saved.body.api_key_configured, true);
  t.is(saved.body.active_profile_id, saved.body.profiles[0].id);
  t.false(saved.text.includes(SECRET_KEY));
  const file = join(host.dataDir, 'ai-diagnostics', 'settings.json');
  t.false(readFileSync(file, 'utf8').includes(SECRET_KEY));
  t.is(statSync(file).mode & 0o777, 0o600);
  t.is(statSync(join(host.dataDir, 'ai-diagnostics', 'secret.key')).mode & 0o777, 0o600);
  // docs/decisions.md §18: the ledger's documented place.
  t.true(existsSync(join(host.dataDir, 'ai-diagnostics', 'events.sqlite')));
  const again = await api('/ai/profiles', {
    name: 'chat',
    provider: 'ollama',
    base_url: local.url,
  });
  t.is(again.status, 422);
  t.is(again.body.field, 'name');
});

test.serial('models and test reach the chat-compatible provider with the stored key', async (t) => {
  const models = await api('/ai/models', {});
  t.is(models.status, 200, models.text);
  t.deepEqual(models.body, {
    provider: 'chat_compatible',
    models: [{ id: 'gpt-test', name: 'gpt-test' }],
  });
  const tested = await api('/ai/test', {});
  t.is(tested.status, 200, tested.text);
  t.is(tested.body.response, 'chat says hello');
  t.deepEqual(tested.body.usage, { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 });
  t.is(chat.received.at(-1)?.headers.authorization, `Bearer ${SECRET_KEY}`);
});

test.serial('local runtime: unsaved provider fields, models and usage normalised', async (t) => {
  const models = await api('/ai/models', { provider: 'local_runtime', base_url: local.url });
  t.deepEqual(models.body.models, [{ id: 'llama-test', name: 'llama-test' }]);
  const tested = await api('/ai/test', {
    provider: 'ollama',
    base_url: local.url,
    model: 'llama-test',
  });
  t.is(tested.status, 200, tested.text);
  t.deepEqual(tested.body.usage, { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
});

test.serial(
  'dry-run diagnose returns the scrubbed bundle and makes no provider call',
  async (t) => {
    const before = chat.received.length;
    const result = await api('/ai/diagnose', { process_name: 'Web', dry_run: true });
    t.is(result.status, 200, result.text);
    t.is(result.body.analysis, '');
    t.is(result.body.session_id, '');
    t.is(result.body.bundle.process_name, 'Web');
    t.is(chat.received.length, before);
    t.false(result.text.includes(ENV_SECRET));
    t.false(result.text.includes('config-planted-key-abcdef'));
  },
);

test.serial('diagnose, follow-up and stack diagnose send only the redacted bundle', async (t) => {
  const result = await api('/ai/diagnose', { process_name: 'Web', question: 'why?' });
  t.is(result.status, 200, result.text);
  t.is(result.body.analysis, 'chat says hello');
  t.not(result.body.session_id, '');
  const follow = await api('/ai/follow-up', {
    session_id: result.body.session_id,
    question: 'and?',
  });
  t.is(follow.status, 200, follow.text);
  t.is(follow.body.session_id, result.body.session_id);
  const stack = await api('/ai/diagnose-stack', { question: 'overall?' });
  t.is(stack.status, 200, stack.text);
  t.true(Array.isArray(stack.body.bundle.processes));
  for (const received of chat.received) {
    t.false(received.body.includes(ENV_SECRET));
    t.false(received.body.includes('config-planted-key-abcdef'));
    t.false(received.body.includes(SECRET_KEY));
  }
  t.false(host.output().includes(SECRET_KEY));
  const missing = await api('/ai/follow-up', { session_id: 'nope', question: 'x' });
  t.is(missing.status, 404);
});

test.serial(
  'provider 429, 500, 404 and a malformed answer all read "could not reach the provider"',
  async (t) => {
    // Telling an error status from a closed port would make /ai/test a port scanner.
    chat.handle((_received, response) => json(response, 429, { error: 'slow down' }));
    const limited = await api('/ai/test', {});
    chat.handle((_received, response) => json(response, 500, { error: 'boom' }));
    const failed = await api('/ai/test', {});
    chat.handle((_received, response) => json(response, 404, { error: 'no such route' }));
    const missing = await api('/ai/test', {});
    chat.handle((_received, response) => json(response, 200, '{"choices": "nope"'));
    const malformed = await api('/ai/test', {});
    for (const answer of [limited, failed, missing, malformed]) {
      t.is(answer.status, 502, answer.text);
      t.deepEqual(answer.body, {
        detail: 'could not reach the provider',
        code: 'AI_PROVIDER_UNREACHABLE',
      });
    }
    t.false(JSON.stringify([limited.body, failed.body, malformed.body]).includes(SECRET_KEY));
  },
);

test.serial('delete the active profile → defaults restored', async (t) => {
  const settings = await api('/ai/settings');
  const removed = await api(`/ai/profiles/${settings.body.active_profile_id}`, undefined, 'DELETE');
  t.is(removed.status, 200, removed.text);
  t.is(removed.body.active_profile_id, '');
  t.is(removed.body.provider, 'local_runtime');
  t.is(removed.body.api_key_configured, false);
});

test.serial(
  'capability flag on, presets served, every route in the OpenAPI document',
  async (t) => {
    const capabilities = await api('/process/capabilities');
    t.is(capabilities.status, 200, capabilities.text);
    t.is(capabilities.body.ai_provider_profiles, true);
    // DUMB's dashboard shows its AI page only with this flag.
    t.is(capabilities.body.ai_diagnostics, true);
    const presets = await api('/ai/presets');
    t.true(presets.body.service.length > 0 && presets.body.stack.length > 0);
    const openapi = await request<{ paths: Record<string, unknown> }>(host.url, '/openapi.json');
    for (const path of [
      '/ai/settings',
      '/ai/profiles',
      '/ai/profiles/{profile_id}/activate',
      '/ai/profiles/{profile_id}',
      '/ai/presets',
      '/ai/test',
      '/ai/models',
      '/ai/diagnose',
      '/ai/diagnose-stack',
      '/ai/follow-up',
    ])
      t.truthy(openapi.body.paths[path], path);
  },
);
