/** A local runtime (Ollama-style `/api/chat`, `/api/tags`); no key. */
import { MalformedAnswer, normaliseUsage, trimSlash, type ProviderAdapter } from './types.js';

export const localRuntimeAdapter: ProviderAdapter = {
  kind: 'local_runtime',
  buildChat(target, system, user) {
    return {
      url: `${trimSlash(target.baseUrl)}/api/chat`,
      headers: { 'content-type': 'application/json' },
      body: {
        model: target.model,
        stream: false,
        options: { temperature: target.temperature },
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
      },
    };
  },
  parseChat(body) {
    const content = (body as { message?: { content?: unknown } } | null)?.message?.content;
    if (typeof content !== 'string') throw new MalformedAnswer('no message.content');
    return { text: content, usage: normaliseUsage(body) };
  },
  buildModels(target) {
    return { url: `${trimSlash(target.baseUrl)}/api/tags`, headers: {} };
  },
  parseModels(body) {
    const models = (body as { models?: unknown } | null)?.models;
    if (!Array.isArray(models)) throw new MalformedAnswer('no models array');
    return models
      .map((entry) => (entry as { name?: unknown }).name)
      .filter((name): name is string => typeof name === 'string');
  },
};
