/** Native C: messages endpoint with `x-api-key` and the pinned API version; no temperature. */
import { compareText } from '../../../sdk/index.js';
import { NATIVE_C_ENDPOINT } from './native-endpoints.js';
import { MalformedAnswer, normaliseUsage, type ProviderAdapter } from './types.js';

const headers = (key: string): Record<string, string> => ({
  'x-api-key': key,
  'anthropic-version': '2023-06-01',
});

export const nativeCAdapter: ProviderAdapter = {
  kind: 'native_c',
  buildChat(target, system, user) {
    return {
      url: `${NATIVE_C_ENDPOINT}/messages`,
      headers: { 'content-type': 'application/json', ...headers(target.apiKey) },
      body: {
        model: target.model,
        max_tokens: 1600,
        system,
        messages: [{ role: 'user', content: user }],
      },
    };
  },
  parseChat(body) {
    const record = body as { content?: { text?: unknown }[]; usage?: unknown } | null;
    if (!Array.isArray(record?.content)) throw new MalformedAnswer('no content array');
    const text = record.content
      .map((part) => (typeof part.text === 'string' ? part.text : ''))
      .join('');
    if (text === '') throw new MalformedAnswer('no response text');
    return { text, usage: normaliseUsage(record.usage) };
  },
  buildModels(target) {
    return { url: `${NATIVE_C_ENDPOINT}/models?limit=1000`, headers: headers(target.apiKey) };
  },
  parseModels(body) {
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw new MalformedAnswer('no data array');
    return data
      .map((entry: { id?: unknown }) => entry.id)
      .filter((id): id is string => typeof id === 'string')
      .sort((a, b) => compareText(a.toLowerCase(), b.toLowerCase()));
  },
};
