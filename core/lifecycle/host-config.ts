/**
 * The host's config document at boot: found (`--config`, a search from the working directory,
 * or the bundled demo), read into the store with its history, and its log level applied. Temp
 * files of writes a crash interrupted are removed first.
 */
import { join } from 'node:path';
import type { Logger } from '../../sdk/logger.js';
import { isJsonRecord } from '../../sdk/config.js';
import {
  readConfigDocument,
  resolveConfigSource,
  type ConfigSource,
} from '../config/config-source.js';
import { ConfigHistory, historyKeep } from '../config/config-history.js';
import { ConfigStore } from '../config/config-store.js';
import { parseLogLevel, type LogSink } from '../logging/logger.js';
import { removeStaleTempFiles, removeStaleTempsOf } from '../storage/stale-temp.js';
import type { HostOptions } from './host-options.js';

/** Find and read the config document; its host section sets the log level. */
export async function loadHostConfig(
  options: Pick<HostOptions, 'configPath' | 'cwd' | 'demoPath' | 'demoDir'>,
  dataDir: string,
  sink: LogSink,
  logger: Logger,
): Promise<{ source: ConfigSource; store: ConfigStore }> {
  const source = await resolveConfigSource({
    explicitPath: options.configPath,
    searchFrom: options.cwd,
    dataDir,
    demoPath: options.demoPath,
  });
  const staleTemps =
    (await removeStaleTempFiles(dataDir)) +
    (source.origin === 'file' ? await removeStaleTempsOf(source.writePath) : 0);
  const store: ConfigStore = new ConfigStore(
    source,
    await readConfigDocument(source, options.demoDir, (message) => logger.warn(message)),
    new ConfigHistory(join(dataDir, 'config-history'), () => historyKeep(store.hostSection())),
  );
  const hostSection = store.hostSection();
  const api = isJsonRecord(hostSection.api_service) ? hostSection.api_service : {};
  sink.setLevel(
    parseLogLevel(typeof api.log_level === 'string' ? api.log_level : process.env.STACKD_LOG_LEVEL),
  );
  logger.info(
    `configuration: ${source.readPath}${source.origin === 'demo' ? ' (bundled demo)' : ''}`,
  );
  if (staleTemps > 0)
    logger.info(`removed ${staleTemps} temp file(s) of writes a crash interrupted`);
  return { source, store };
}
