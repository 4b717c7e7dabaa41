/** `GET/PUT /ai/settings`: public settings (no key) and saving them. */
import { defineRoute } from '../../../sdk/index.js';
import { checkProviderUrl } from '../provider/provider-client.js';
import { PublicSettings, SettingsBody } from '../schemas.js';
import type { SettingsStore } from '../settings/settings-store.js';

const CAPABILITY = 'ai_provider_profiles';

export function getSettingsRoute(store: SettingsStore) {
  return defineRoute({
    method: 'GET',
    path: '/ai/settings',
    summary: 'AI settings without the API key',
    tags: ['ai'],
    capability: CAPABILITY,
    schema: { response: PublicSettings },
    handler: () => store.view(),
  });
}

export function putSettingsRoute(store: SettingsStore) {
  return defineRoute({
    method: 'PUT',
    path: '/ai/settings',
    summary: 'Save AI settings; omit api_key to keep the stored key',
    tags: ['ai'],
    schema: { body: SettingsBody, response: PublicSettings },
    handler: (request) => {
      if (request.body.base_url !== undefined && request.body.base_url !== '')
        checkProviderUrl(request.body.base_url, 'base_url');
      return store.update(request.body);
    },
  });
}
