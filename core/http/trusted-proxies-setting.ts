/**
 * `stackd.api_service.trusted_proxies` as a live setting: refused at boot (naming the entry) when
 * an entry is not an address or CIDR, checked on every configuration update, and applied to the
 * running server after a change.
 */
import { InputError } from '../../sdk/errors.js';
import { isJsonRecord, type JsonRecord } from '../../sdk/config.js';
import type { ConfigStore } from '../config/config-store.js';
import { BootError } from '../errors/boot-error.js';
import {
  ClientAddresses,
  TrustedProxyError,
  trustedList,
  trustedProxiesOf,
} from './client-address.js';

function apiServiceOf(document: JsonRecord): unknown {
  const host = document.stackd;
  return isJsonRecord(host) ? host.api_service : undefined;
}

/** The resolver for the store's current document, kept up to date with its changes. */
export function clientAddressesOf(store: ConfigStore): ClientAddresses {
  let addresses: ClientAddresses;
  try {
    addresses = new ClientAddresses(trustedProxiesOf(apiServiceOf(store.read())));
  } catch (error) {
    if (error instanceof TrustedProxyError)
      throw new BootError('STACKD_CONFIG_INVALID', error.message);
    throw error;
  }
  store.addValidator((candidate) => {
    try {
      trustedList(trustedProxiesOf(apiServiceOf(candidate)));
    } catch (error) {
      if (!(error instanceof TrustedProxyError)) throw error;
      throw new InputError('CONFIG_INVALID', error.message, {
        field: 'stackd.api_service.trusted_proxies',
      });
    }
  });
  store.onChange(() => addresses.replace(trustedProxiesOf(apiServiceOf(store.read()))));
  return addresses;
}
