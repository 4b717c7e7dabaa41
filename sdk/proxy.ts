/**
 * Reverse proxies: a plugin names a path prefix and how to find the upstream for each key; core
 * forwards HTTP (streaming both ways) and WebSocket upgrades behind the same auth gate.
 */
import type { AuthMode } from './http.js';

/** Where requests for one key go. */
export interface ProxyTarget {
  /** Upstream origin, `http://127.0.0.1:8989`. */
  readonly origin: string;
  /**
   * Drop `<prefix>/<key>` from the forwarded path (default true). Keep it for services configured
   * with a URL base equal to the public path.
   */
  readonly stripPrefix?: boolean;
}

/** A proxy a plugin declares with `ctx.proxy(...)`. */
export interface ProxyDefinition {
  /** Path prefix such as `/service/ui`; requests look like `<prefix>/<key>/<rest>`. */
  readonly prefix: string;
  readonly summary: string;
  /** Defaults to `required`. */
  readonly auth?: AuthMode;
  /** The upstream for a key, or null when the key is unknown or proxying is off (404). */
  resolve(key: string): ProxyTarget | null;
}
