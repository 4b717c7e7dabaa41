/** Provider kind → adapter, with the accepted aliases (DUMB's provider strings included). */
import { InputError } from '../../../sdk/index.js';
import {
  chatCompatibleAdapter,
  gatewayProxyAdapter,
  webUiGatewayAdapter,
} from './chat-compatible.js';
import { localRuntimeAdapter } from './local-runtime.js';
import { nativeAAdapter } from './native-a.js';
import { nativeBAdapter } from './native-b.js';
import { nativeCAdapter } from './native-c.js';
import type { ProviderAdapter } from './types.js';
import { PROVIDER_UNKNOWN } from '../errors.js';

const ADAPTERS: Readonly<Record<string, ProviderAdapter>> = {
  local_runtime: localRuntimeAdapter,
  ollama: localRuntimeAdapter,
  native_a: nativeAAdapter,
  native_a_alias: nativeAAdapter,
  gemini: nativeAAdapter,
  google_gemini: nativeAAdapter,
  web_ui_gateway: webUiGatewayAdapter,
  open_webui: webUiGatewayAdapter,
  native_b: nativeBAdapter,
  openai: nativeBAdapter,
  chat_compatible: chatCompatibleAdapter,
  compatible: chatCompatibleAdapter,
  openai_compatible: chatCompatibleAdapter,
  gateway_proxy: gatewayProxyAdapter,
  litellm: gatewayProxyAdapter,
  native_c: nativeCAdapter,
  native_c_alias: nativeCAdapter,
  anthropic: nativeCAdapter,
  claude: nativeCAdapter,
};

/** The adapter for a provider string, or a 422 naming `provider`. */
export function adapterFor(provider: string): ProviderAdapter {
  const key = provider.trim().toLowerCase();
  // Own keys only: "constructor" or "__proto__" must not find Object.prototype's members.
  const adapter = Object.hasOwn(ADAPTERS, key) ? ADAPTERS[key] : undefined;
  if (adapter === undefined)
    throw new InputError(PROVIDER_UNKNOWN, `Unknown AI provider: ${provider}`, {
      field: 'provider',
    });
  return adapter;
}
