/**
 * How core asks whether a request may proceed: the routes, the reverse proxy, the streams and
 * the socket relay all call the one authenticator the auth plugin provides, with what they know
 * about the request.
 */
import type {
  AuthenticationRequest,
  AuthenticationResult,
} from '../../sdk/contracts/authenticator.js';

/** The authenticator's call; synchronous whenever the answer needs no I/O. */
export type Authenticate = (
  request: AuthenticationRequest,
) => AuthenticationResult | Promise<AuthenticationResult>;
