/**
 * The service UIs of the current document, rebuilt only when the document changes: the proxy
 * resolves a key on every proxied request.
 */
import type { StackConfig } from '../../../sdk/index.js';
import { serviceUiEnabled, serviceUis, type ServiceUi } from './service-ui-map.js';

interface Snapshot {
  readonly enabled: boolean;
  readonly byKey: ReadonlyMap<string, ServiceUi>;
  readonly list: readonly ServiceUi[];
}

/** Cached view of the service UIs. */
export class ServiceUiState {
  private cache: Snapshot | undefined;

  constructor(private readonly stack: StackConfig) {}

  /** Forget the cache (call on every document change). */
  invalidate(): void {
    this.cache = undefined;
  }

  current(): Snapshot {
    if (this.cache === undefined) {
      const document = this.stack.read();
      const list = serviceUis(document);
      this.cache = {
        enabled: serviceUiEnabled(document),
        byKey: new Map(list.map((ui) => [ui.key, ui])),
        list,
      };
    }
    return this.cache;
  }

  /** The origin a key proxies to, or null while off or for an unknown or disabled key. */
  origin(key: string): string | null {
    const state = this.current();
    return state.enabled ? (state.byKey.get(key)?.origin ?? null) : null;
  }
}
