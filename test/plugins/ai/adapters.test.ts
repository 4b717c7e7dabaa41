/** Request building and response parsing of each adapter, usage shapes, lifecycle, ledger keys. */
import test from 'ava';
import { adapterFor } from '../../../plugins/ai/adapters/index.js';
import { normaliseUsage, type ProviderTarget } from '../../../plugins/ai/adapters/types.js';
import {
  compatibilityOf,
  lifecycleOf,
  rejectRetired,
} from '../../../plugins/ai/provider/model-retirement.js';
import { changedKeys } from '../../../plugins/ai/ledger.js';

const target = (provider: string, fields: Partial<ProviderTarget> = {}): ProviderTarget => ({
  provider,
  baseUrl: 'http://127.0.0.1:9/v1/',
  model: 'm-1',
  apiKey: 'k-1',
  timeoutSec: 30,
  temperature: 0.3,
  ...fields,
});

test('every documented provider string resolves; an unknown one is a 422 naming provider', (t) => {
  const kinds = [
    'ollama',
    'gemini',
    'google_gemini',
    'open_webui',
    'openai',
    'openai_compatible',
    'compatible',
    'litellm',
    'anthropic',
    'claude',
  ].map((p) => adapterFor(p).kind);
  t.deepEqual(kinds, [
    'local_runtime',
    'native_a',
    'native_a',
    'web_ui_gateway',
    'native_b',
    'chat_compatible',
    'chat_compatible',
    'gateway_proxy',
    'native_c',
    'native_c',
  ]);
  const error = t.throws(() => adapterFor('nope')) as unknown as { status: number; field: string };
  t.is(error.status, 422);
  t.is(error.field, 'provider');
});

test('chat-compatible: base + /chat/completions, Bearer only with a key, temperature sent', (t) => {
  const built = adapterFor('compatible').buildChat(target('compatible'), 'sys', 'user');
  t.is(built.url, 'http://127.0.0.1:9/v1/chat/completions');
  t.is(built.headers.authorization, 'Bearer k-1');
  t.like(built.body, { model: 'm-1', temperature: 0.3 });
  const keyless = adapterFor('compatible').buildChat(
    target('compatible', { apiKey: '' }),
    's',
    'u',
  );
  t.is(keyless.headers.authorization, undefined);
  t.is(
    adapterFor('open_webui').buildModels(target('open_webui', { baseUrl: 'http://h' })).url,
    'http://h/api/models',
  );
  t.is(
    adapterFor('compatible').parseChat({ choices: [{ message: { content: 'hi' } }] }).text,
    'hi',
  );
  t.throws(() => adapterFor('compatible').parseChat({ choices: 'x' }));
});

test('native B: store false, developer role, no temperature; output_text or joined output', (t) => {
  const adapter = adapterFor('openai');
  const body = adapter.buildChat(target('openai'), 'sys', 'user').body as Record<string, unknown>;
  t.is(body.store, false);
  t.is(body.temperature, undefined);
  t.deepEqual(body.input, [
    { role: 'developer', content: 'sys' },
    { role: 'user', content: 'user' },
  ]);
  t.is(
    adapter.parseChat({
      output: [{ content: [{ type: 'output_text', text: 'a' }, { text: 'b' }] }],
    }).text,
    'ab',
  );
});

test('native A: key header, model prefix stripped, thought parts skipped; native C headers', (t) => {
  const a = adapterFor('gemini').buildChat(target('gemini', { model: 'models/g-1' }), 's', 'u');
  t.true(a.url.endsWith('/models/g-1:generateContent'));
  t.is(a.headers['x-goog-api-key'], 'k-1');
  t.is(
    adapterFor('gemini').parseChat({
      candidates: [{ content: { parts: [{ text: 'x', thought: true }, { text: 'y' }] } }],
    }).text,
    'y',
  );
  const c = adapterFor('claude').buildChat(target('claude'), 's', 'u');
  t.is(c.headers['anthropic-version'], '2023-06-01');
  t.is(c.headers['x-api-key'], 'k-1');
  t.is(adapterFor('claude').parseChat({ content: [{ text: 'p' }, { text: 'q' }] }).text, 'pq');
});

test('local runtime: /api/chat with stream false; /api/tags names', (t) => {
  const adapter = adapterFor('ollama');
  const built = adapter.buildChat(target('ollama', { baseUrl: 'http://h:11434' }), 's', 'u');
  t.is(built.url, 'http://h:11434/api/chat');
  t.like(built.body, { stream: false, options: { temperature: 0.3 } });
  t.deepEqual(adapter.parseModels({ models: [{ name: 'a' }, { name: 'b' }] }), ['a', 'b']);
});

test('usage normalised from every documented shape', (t) => {
  const expected = { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 };
  t.deepEqual(
    normaliseUsage({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 }),
    expected,
  );
  t.deepEqual(normaliseUsage({ input_tokens: 2, output_tokens: 3 }), expected);
  t.deepEqual(
    normaliseUsage({ promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 }),
    expected,
  );
  t.deepEqual(normaliseUsage({ prompt_eval_count: 2, eval_count: 3 }), expected);
  t.is(normaliseUsage(undefined), null);
});

test('lifecycle: retired vs deprecated by date; rejection text names the replacement', (t) => {
  const day = new Date('2026-11-21T00:00:00Z');
  t.is(lifecycleOf('native_a', 'models/gemini-2.0-flash-lite', day)?.status, 'retired');
  t.is(lifecycleOf('native_a', 'gemini-3.1-flash-lite', day)?.status, 'deprecated');
  t.is(lifecycleOf('chat_compatible', 'gpt-4', day), null);
  const error = t.throws(() => rejectRetired('native_c', 'claude-3-opus-20240229', day));
  t.is(
    error?.message,
    "Anthropic retired model claude-3-opus-20240229 on 2026-01-05, although it may still appear in the provider's model list. Use claude-opus-4-8 instead.",
  );
});

test('compatibility: non-text models of the native kinds are unsupported, with the reason', (t) => {
  t.is(compatibilityOf('native_b', 'gpt-4o-realtime-preview')?.status, 'unsupported');
  t.is(compatibilityOf('native_b', 'dall-e-3')?.status, 'unsupported');
  t.regex(compatibilityOf('native_b', 'o4-deep-research')?.reason ?? '', /specialized tool/);
  // "image" must be a delimited token for OpenAI: a name merely containing it is fine.
  t.is(compatibilityOf('native_b', 'gpt-5-imagery')?.status, 'supported');
  t.is(compatibilityOf('native_a', 'gemini-2.5-flash-image')?.status, 'unsupported');
  t.is(compatibilityOf('native_a', 'models/gemini-3.1-pro')?.api_surface, 'generateContent');
  t.is(compatibilityOf('native_c', 'claude-sonnet-4-6')?.api_surface, 'messages');
  t.is(compatibilityOf('chat_compatible', 'anything'), null);
  t.is(compatibilityOf('native_b', ''), null);
});

test('ledger keys: changed paths only, secrets named but never valued', (t) => {
  const keys = changedKeys(
    { web: { port: 1, api_key: 'old-secret' }, same: { a: 1 } },
    { web: { port: 2, api_key: 'new-secret' }, same: { a: 1 }, added: true },
  );
  t.deepEqual(keys, ['added', 'web.api_key (secret)', 'web.port']);
  t.false(JSON.stringify(keys).includes('secret"'));
});

test('timeouts clamp to 5–300 s, whatever number arrives', async (t) => {
  const { clampTimeout } = await import('../../../plugins/ai/provider/provider-client.js');
  t.is(clampTimeout(40.5), 40.5);
  t.is(clampTimeout(1), 5);
  t.is(clampTimeout(1e9), 300);
  t.is(clampTimeout(Number.NaN), 300);
  t.true(Number.isInteger(Math.round(clampTimeout(40.513131) * 1000)));
});
