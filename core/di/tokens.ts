/** Injection tokens of the root container and of each plugin's child container. */
import type { InjectionToken } from 'tsyringe';
import type { Logger } from '../../sdk/logger.js';
import type { Plugin } from '../../sdk/plugin.js';
import type { HostInfo } from '../../sdk/context.js';
import type { FolderStorage } from '../storage/plugin-storage.js';
import type { PluginTasks } from '../runtime/task-runner.js';

/** Host-wide facts (data dir, version, base URL). */
export const HOST_INFO: InjectionToken<HostInfo> = Symbol('stackd.host-info');
/** The core logger. */
export const CORE_LOGGER: InjectionToken<Logger> = Symbol('stackd.core-logger');
/** The plugin a child container belongs to. */
export const PLUGIN: InjectionToken<Plugin> = Symbol('stackd.plugin');
/** The plugin's scoped logger. */
export const PLUGIN_LOGGER: InjectionToken<Logger> = Symbol('stackd.plugin-logger');
/** The plugin's validated config slice, boxed: tsyringe treats a bare `undefined` as unregistered. */
export const PLUGIN_CONFIG: InjectionToken<{ readonly value: unknown }> =
  Symbol('stackd.plugin-config');
/** The plugin's storage folder. */
export const PLUGIN_STORAGE: InjectionToken<FolderStorage> = Symbol('stackd.plugin-storage');
/** The plugin's background tasks. */
export const PLUGIN_TASKS: InjectionToken<PluginTasks> = Symbol('stackd.plugin-tasks');
