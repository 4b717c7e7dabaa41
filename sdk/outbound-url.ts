/**
 * The one check for URLs the host calls out to (request managers, webhooks, AI providers):
 * http or https, a host, and no credentials in the URL (they would end up in logs and errors;
 * keys travel in headers). Private and loopback addresses stay allowed: internal services and
 * local model runtimes live there.
 */
import { InputError } from './errors.js';

/** Parse `value` as an outbound URL or throw a 422 `InputError` naming `field`. */
export function checkOutboundUrl(value: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new InputError('URL_INVALID', `${field} is not a valid URL`, { field });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InputError(
      'URL_SCHEME',
      `${field}: unsupported URL scheme '${url.protocol.replace(/:$/, '')}'; expected http or https`,
      { field },
    );
  if (url.hostname === '')
    throw new InputError('URL_HOST', `${field}: the URL has no host`, { field });
  if (url.username !== '' || url.password !== '')
    throw new InputError(
      'URL_CREDENTIALS',
      `${field}: credentials are not allowed in the URL; use the API key or header fields`,
      { field },
    );
  return url;
}
