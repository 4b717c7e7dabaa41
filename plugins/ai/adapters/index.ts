/** Provider kind → adapter, with the accepted aliases (DUMB's provider strings included). */
import { InputError } from '../../../sdk/index.js';
import { chatCompatibleAdapter } from './chat-compatible.js';
import { localRuntimeAdapter } from './local-runtime.js';
import type { ProviderAdapter } from './types.js';

const ADAPTERS: Readonly<Record<string, ProviderAdapter>> = {
  local_runtime: localRuntimeAdapter,
  ollama: localRuntimeAdapter,
  chat_compatible: chatCompatibleAdapter,
  openai_compatible: chatCompatibleAdapter,
};

/** The adapter for a provider string, or a 422 naming `provider`. */
export function adapterFor(provider: string): ProviderAdapter {
  const adapter = ADAPTERS[provider.trim().toLowerCase()];
  if (adapter === undefined)
    throw new InputError('AI_PROVIDER_UNKNOWN', `Unknown AI provider: ${provider}`, {
      field: 'provider',
    });
  return adapter;
}
