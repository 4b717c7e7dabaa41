/** How many configuration versions the host keeps (`stackd.config_history.keep`). */
import { isJsonRecord, type JsonRecord } from '../../../sdk/index.js';

/** The default when the configuration does not say. */
export const DEFAULT_KEEP = 50;

/** `stackd.config_history.keep` of a document, else the default. */
export function historyKeepOf(document: JsonRecord): number {
  const host = document.stackd;
  const section = isJsonRecord(host) ? host.config_history : undefined;
  const keep = isJsonRecord(section) ? section.keep : undefined;
  return typeof keep === 'number' && Number.isInteger(keep) && keep >= 1 ? keep : DEFAULT_KEEP;
}
