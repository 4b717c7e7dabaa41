/**
 * OpenAI-style chat servers: chat-compatible (and alias), gateway proxy and web-UI gateway
 * (`/api` appended to the base). `<base>/chat/completions`, `<base>/models`; Bearer only with a key.
 */
import { MalformedAnswer, normaliseUsage, trimSlash, type ProviderAdapter } from './types.js';

const bearer = (key: string): Record<string, string> =>
  key === '' ? {} : { authorization: `Bearer ${key}` };

function chatAdapter(kind: string, base: (url: string) => string): ProviderAdapter {
  return {
    kind,
    buildChat(target, system, user) {
      const root = base(trimSlash(target.baseUrl)).replace(/\/chat\/completions$/, '');
      return {
        url: `${root}/chat/completions`,
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
      const record = body as { choices?: unknown; text?: unknown; usage?: unknown } | null;
      const choices = record?.choices;
      const content = Array.isArray(choices)
        ? (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content
        : record?.text;
      if (typeof content !== 'string') throw new MalformedAnswer('no choices[0].message.content');
      return { text: content, usage: normaliseUsage(record?.usage) };
    },
    buildModels(target) {
      return { url: `${base(trimSlash(target.baseUrl))}/models`, headers: bearer(target.apiKey) };
    },
    parseModels(body) {
      const data = (body as { data?: unknown } | null)?.data;
      if (!Array.isArray(data)) throw new MalformedAnswer('no data array');
      return data
        .map((entry) => (entry as { id?: unknown }).id)
        .filter((id): id is string => typeof id === 'string');
    },
  };
}

export const chatCompatibleAdapter = chatAdapter('chat_compatible', (url) => url);
export const gatewayProxyAdapter = chatAdapter('gateway_proxy', (url) => url);
export const webUiGatewayAdapter = chatAdapter('web_ui_gateway', (url) =>
  url.endsWith('/api') ? url : `${url}/api`,
);
