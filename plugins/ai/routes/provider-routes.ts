/** `POST /ai/test` and `POST /ai/models`: reach a (possibly unsaved) provider. */
import { ErrorBody, defineRoute } from '../../../sdk/index.js';
import type { ProviderTarget } from '../adapters/types.js';
import { adapterFor } from '../adapters/index.js';
import { compatibilityOf, lifecycleOf } from '../provider/model-retirement.js';
import { checkProviderUrl, complete, listModels } from '../provider/provider-client.js';
import { ModelsResponse, ProviderBody, TestResponse } from '../schemas.js';
import type { SettingsStore } from '../settings/settings-store.js';

type ProviderInput = {
  provider?: string;
  base_url?: string;
  model?: string;
  timeout_sec?: number;
  temperature?: number;
  api_key?: string;
};

/** Body fields over the saved target; a blank key keeps the stored one. */
function targetOf(store: SettingsStore, body: ProviderInput): ProviderTarget {
  const saved = store.target();
  if (body.base_url !== undefined && body.base_url !== '')
    checkProviderUrl(body.base_url, 'base_url');
  return {
    provider: body.provider ?? saved.provider,
    baseUrl: body.base_url || saved.baseUrl,
    model: body.model ?? saved.model,
    apiKey: body.api_key?.trim() || saved.apiKey,
    timeoutSec: body.timeout_sec ?? saved.timeoutSec,
    temperature: body.temperature ?? saved.temperature,
  };
}

export function testRoute(store: SettingsStore) {
  return defineRoute({
    method: 'POST',
    path: '/ai/test',
    summary: 'Send a tiny prompt to the provider (no logs, config or bundle)',
    tags: ['ai'],
    schema: { body: ProviderBody, response: { 200: TestResponse, 502: ErrorBody } },
    handler: async (request) => {
      const target = targetOf(store, request.body);
      const answer = await complete(target, 'Reply with OK.', 'Say OK.', request.signal);
      return {
        ok: true,
        provider: target.provider,
        model: target.model,
        response: answer.text,
        usage: answer.usage,
      };
    },
  });
}

export function modelsRoute(store: SettingsStore) {
  return defineRoute({
    method: 'POST',
    path: '/ai/models',
    summary: "List the provider's models",
    tags: ['ai'],
    schema: { body: ProviderBody, response: { 200: ModelsResponse, 502: ErrorBody } },
    handler: async (request) => {
      const target = targetOf(store, request.body);
      const models = await listModels(target, request.signal);
      const kind = adapterFor(target.provider).kind;
      // Retired and unsupported models stay listed marked, so the picker can grey them out.
      return {
        provider: target.provider,
        models: models.map((id) => {
          const lifecycle = lifecycleOf(kind, id);
          const compatibility = compatibilityOf(kind, id);
          return {
            id,
            name: id,
            ...(lifecycle === null ? {} : { lifecycle }),
            ...(compatibility === null ? {} : { compatibility }),
          };
        }),
      };
    },
  });
}
