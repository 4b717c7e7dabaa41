/**
 * `core.authenticator`: the extension point core calls for every route and stream whose auth is
 * `required`. The auth plugin provides it; with no provider everything is open.
 */
import type { Principal } from '../http.js';
import { createServiceRef } from '../services.js';

/** What core knows about a request when it asks for authentication. */
export interface AuthenticationRequest {
  /** The bearer token (from `Authorization: Bearer` or a WebSocket's `?token=`), or null. */
  readonly token: string | null;
  readonly ip: string;
  readonly path: string;
  /** The HTTP method (`GET`); absent for a WebSocket upgrade. */
  readonly method?: string;
  readonly transport: 'http' | 'websocket';
}

/** The authenticator's answer. `principal` is null when authentication is disabled. */
export type AuthenticationResult =
  | { readonly ok: true; readonly principal: Principal | null }
  | {
      readonly ok: false;
      readonly status: 401 | 403;
      readonly code: string;
      readonly detail: string;
    };

/** Decides whether a request may proceed. Must not throw; answer `ok: false` instead. */
export interface Authenticator {
  /**
   * Answer synchronously whenever the answer needs no I/O (authentication off, no token, a
   * cached token): core then refuses a request before reading its body, so an anonymous 1 MiB
   * POST costs nothing. Return a promise only when the token must be verified.
   */
  authenticate(
    request: AuthenticationRequest,
  ): AuthenticationResult | Promise<AuthenticationResult>;
}

/** The open extension point; exactly one plugin may provide it. */
export const authenticatorRef = createServiceRef<Authenticator>({
  id: 'core.authenticator',
  owner: 'core',
});
