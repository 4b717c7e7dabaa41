/**
 * `stackd.outbound` (what plugins may call out to) checked where the document changes: refused
 * at boot naming the field, and every configuration update must pass it (422 naming the field).
 * Plugins read the setting live through the sdk's outbound client.
 */
import { InputError } from '../../sdk/errors.js';
import { OutboundSettingsError, outboundSettingsOf } from '../../sdk/outbound/policy.js';
import { BootError } from '../errors/boot-error.js';
import type { ConfigStore } from './config-store.js';

export function guardOutboundSetting(store: ConfigStore): void {
  try {
    outboundSettingsOf(store.read());
  } catch (error) {
    if (error instanceof OutboundSettingsError)
      throw new BootError('STACKD_CONFIG_INVALID', error.message);
    throw error;
  }
  store.addValidator((candidate) => {
    try {
      outboundSettingsOf(candidate);
    } catch (error) {
      if (!(error instanceof OutboundSettingsError)) throw error;
      throw new InputError('CONFIG_INVALID', error.message, { field: error.field });
    }
  });
}
