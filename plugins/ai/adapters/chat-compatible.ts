/** OpenAI-style `/v1/chat/completions` servers (chat-compatible kind and its alias). */
import { MalformedAnswer, normaliseUsage, trimSlash, type ProviderAdapter } from './types.js';

const bearer = (key: string): Record<string, string> =>
  key === '' ? {} : { authorization: `Bearer ${key}` };

export const chatCompatibleAdapter: ProviderAdapter = {
  kind: 'chat_compatible',
  buildChat(target, system, user) {
    return {
      url: `${trimSlash(target.baseUrl)}/v1/chat/completions`,
      headers: { 'content-type': 'application/json', ...bearer(target.apiKey) },
      body: {
        model: target.model,
        temperature: target.temperature,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
      },
    };
  },
  parseChat(body) {
    const choices = (body as { choices?: unknown } | null)?.choices;
    const content = Array.isArray(choices)
      ? (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content
      : undefined;
    if (typeof content !== 'string') throw new MalformedAnswer('no choices[0].message.content');
    return { text: content, usage: normaliseUsage((body as { usage?: unknown }).usage) };
  },
  buildModels(target) {
    return { url: `${trimSlash(target.baseUrl)}/v1/models`, headers: bearer(target.apiKey) };
  },
  parseModels(body) {
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw new MalformedAnswer('no data array');
    return data
      .map((entry) => (entry as { id?: unknown }).id)
      .filter((id): id is string => typeof id === 'string');
  },
};
