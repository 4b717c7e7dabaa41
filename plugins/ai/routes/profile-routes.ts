/** Provider profiles: save (create/update, made active), activate, delete. */
import { ErrorBody, defineRoute } from '../../../sdk/index.js';
import { checkProviderUrl } from '../provider/provider-client.js';
import { ProfileBody, ProfileParams, PublicSettings } from '../schemas.js';
import type { SettingsStore } from '../settings/settings-store.js';

export function saveProfileRoute(store: SettingsStore) {
  return defineRoute({
    method: 'POST',
    path: '/ai/profiles',
    summary: 'Create or update a provider profile and make it active',
    tags: ['ai'],
    capability: 'ai_provider_profiles',
    // 404: an update naming a profile id that is not saved.
    schema: { body: ProfileBody, response: { 200: PublicSettings, 404: ErrorBody } },
    handler: (request) => {
      if (request.body.base_url !== undefined && request.body.base_url !== '')
        checkProviderUrl(request.body.base_url, 'base_url');
      return store.saveProfile(request.body);
    },
  });
}

export function activateProfileRoute(store: SettingsStore) {
  return defineRoute({
    method: 'POST',
    path: '/ai/profiles/:profile_id/activate',
    summary: 'Make a saved profile active',
    tags: ['ai'],
    schema: { params: ProfileParams, response: { 200: PublicSettings, 404: ErrorBody } },
    handler: (request) => store.activate(request.params.profile_id),
  });
}

export function deleteProfileRoute(store: SettingsStore) {
  return defineRoute({
    method: 'DELETE',
    path: '/ai/profiles/:profile_id',
    summary: 'Delete a profile (the first remaining becomes active)',
    tags: ['ai'],
    schema: { params: ProfileParams, response: { 200: PublicSettings, 404: ErrorBody } },
    handler: (request) => store.remove(request.params.profile_id),
  });
}
