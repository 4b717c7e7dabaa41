/** Native B: the responses endpoint, `store: false`, system → developer role; no temperature. */
import { compareText } from '../../../sdk/index.js';
import { NATIVE_B_ENDPOINT } from './native-endpoints.js';
import { MalformedAnswer, normaliseUsage, type ProviderAdapter } from './types.js';

const bearer = (key: string): Record<string, string> =>
  key === '' ? {} : { authorization: `Bearer ${key}` };

export const nativeBAdapter: ProviderAdapter = {
  kind: 'native_b',
  buildChat(target, system, user) {
    return {
      url: `${NATIVE_B_ENDPOINT}/responses`,
      headers: { 'content-type': 'application/json', ...bearer(target.apiKey) },
      body: {
        model: target.model,
        input: [
          { role: 'developer', content: system },
          { role: 'user', content: user },
        ],
        max_output_tokens: 1600,
        store: false,
      },
    };
  },
  parseChat(body) {
    const record = body as {
      output_text?: unknown;
      output?: { content?: { type?: unknown; text?: unknown }[] }[];
      usage?: unknown;
    } | null;
    let text = typeof record?.output_text === 'string' ? record.output_text : '';
    if (text === '' && Array.isArray(record?.output))
      text = record.output
        .flatMap((item) => (Array.isArray(item.content) ? item.content : []))
        .filter(
          (part) => part.type === undefined || part.type === 'output_text' || part.type === 'text',
        )
        .map((part) => (typeof part.text === 'string' ? part.text : ''))
        .join('');
    if (text === '') throw new MalformedAnswer('no output_text');
    return { text, usage: normaliseUsage(record?.usage) };
  },
  buildModels(target) {
    return { url: `${NATIVE_B_ENDPOINT}/models`, headers: bearer(target.apiKey) };
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
