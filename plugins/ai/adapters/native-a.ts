/** Native A: generateContent with the key in `x-goog-api-key`; no temperature sent. */
import { NATIVE_A_ENDPOINT } from './native-endpoints.js';
import { MalformedAnswer, normaliseUsage, type ProviderAdapter } from './types.js';

const modelId = (model: string): string => model.trim().replace(/^models\//, '');

export const nativeAAdapter: ProviderAdapter = {
  kind: 'native_a',
  buildChat(target, system, user) {
    return {
      url: `${NATIVE_A_ENDPOINT}/models/${encodeURIComponent(modelId(target.model))}:generateContent`,
      headers: { 'content-type': 'application/json', 'x-goog-api-key': target.apiKey },
      body: {
        contents: [{ role: 'user', parts: [{ text: user }] }],
        generationConfig: { maxOutputTokens: 1600 },
        systemInstruction: { parts: [{ text: system }] },
      },
    };
  },
  parseChat(body) {
    const record = body as {
      candidates?: { content?: { parts?: { text?: unknown; thought?: unknown }[] } }[];
      usageMetadata?: unknown;
    } | null;
    const parts = record?.candidates?.[0]?.content?.parts;
    if (!Array.isArray(parts)) throw new MalformedAnswer('no candidates[0].content.parts');
    const texts = (skipThoughts: boolean) =>
      parts
        .filter((part) => !(skipThoughts && part.thought === true))
        .map((part) => (typeof part.text === 'string' ? part.text : ''))
        .join('');
    const text = texts(true) || texts(false);
    if (text === '') throw new MalformedAnswer('no response text');
    return { text, usage: normaliseUsage(record?.usageMetadata) };
  },
  buildModels(target) {
    return {
      url: `${NATIVE_A_ENDPOINT}/models?pageSize=1000`,
      headers: { 'x-goog-api-key': target.apiKey },
    };
  },
  parseModels(body) {
    const models = (body as { models?: unknown } | null)?.models;
    if (!Array.isArray(models)) throw new MalformedAnswer('no models array');
    return models
      .filter((entry: { supportedGenerationMethods?: unknown }) => {
        const methods = entry.supportedGenerationMethods;
        return (
          !Array.isArray(methods) || methods.length === 0 || methods.includes('generateContent')
        );
      })
      .map((entry: { name?: unknown }) =>
        typeof entry.name === 'string' ? modelId(entry.name) : '',
      )
      .filter((name) => name !== '')
      .sort();
  },
};
