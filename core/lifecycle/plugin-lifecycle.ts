/**
 * One plugin's life in the host: its scope is built and `register` runs within its budget, then
 * its start hooks in order, and at stop its stop hooks in reverse and its background tasks, each
 * bounded so one plugin cannot hold the host.
 */
import type { DependencyContainer } from 'tsyringe';
import type { Logger } from '../../sdk/logger.js';
import { STOP_NOTICE_MS } from '../../sdk/context.js';
import type { CapabilityRegistry } from '../capabilities/capability-registry.js';
import {
  PLUGIN,
  PLUGIN_CONFIG,
  PLUGIN_LOGGER,
  PLUGIN_STORAGE,
  PLUGIN_TASKS,
} from '../di/tokens.js';
import { BootError, bootErrorCode } from '../errors/boot-error.js';
import { describeError, ScopedLogger, type LogSink } from '../logging/logger.js';
import { pluginConfigSlice } from '../plugins/plugin-config.js';
import type { LoadedPlugin } from '../plugins/plugin-loader.js';
import { PluginScope } from '../plugins/plugin-scope.js';
import { PluginTasks } from '../runtime/task-runner.js';
import { FolderStorage } from '../storage/plugin-storage.js';
import type { HostOptions } from './host-options.js';
import { runBounded } from './timeouts.js';

/** A plugin the host registered: what it declared, its storage and its background tasks. */
export interface ActivePlugin {
  readonly loaded: LoadedPlugin;
  readonly scope: PluginScope;
  readonly storage: FolderStorage;
  readonly tasks: PluginTasks;
  started: boolean;
}

/** What registering a plugin needs from the host. */
export interface RegisterEnvironment {
  readonly container: DependencyContainer;
  readonly sink: LogSink;
  readonly dataDir: string;
  readonly hostSection: Record<string, unknown>;
  readonly timeouts: HostOptions['timeouts'];
}

/**
 * Build the plugin's scope and run its `register` within the budget. The entry is handed to
 * `track` before `register` runs, so a plugin that fails half-way is still stopped.
 */
export async function registerPlugin(
  loaded: LoadedPlugin,
  env: RegisterEnvironment,
  track: (entry: ActivePlugin) => void,
): Promise<void> {
  const { plugin } = loaded;
  const logger = new ScopedLogger(env.sink, plugin.name);
  const storage = new FolderStorage(env.dataDir, plugin.storageFolder ?? plugin.name);
  const tasks = new PluginTasks(logger);
  const scopeContainer = env.container.createChildContainer();
  scopeContainer.register(PLUGIN, { useValue: plugin });
  scopeContainer.register(PLUGIN_LOGGER, { useValue: logger });
  scopeContainer.register(PLUGIN_CONFIG, {
    useValue: { value: pluginConfigSlice(plugin, env.hostSection) },
  });
  scopeContainer.register(PLUGIN_STORAGE, { useValue: storage });
  scopeContainer.register(PLUGIN_TASKS, { useValue: tasks });
  const scope = scopeContainer.resolve(PluginScope);
  track({ loaded, scope, storage, tasks, started: false });
  try {
    await runBounded(`plugin '${plugin.name}' register`, env.timeouts.registerMs, () =>
      plugin.register(scope as never),
    );
  } catch (error) {
    throw new BootError(
      bootErrorCode(error) ?? 'STACKD_REGISTER_FAILED',
      `plugin '${plugin.name}' failed to register: ${describeError(error)}`,
      { cause: error },
    );
  } finally {
    scope.seal();
  }
}

/** Run the plugin's start hooks in order, each within the start budget. */
export async function startPlugin(
  entry: ActivePlugin,
  startMs: number,
  capabilities: CapabilityRegistry,
  logger: Logger,
): Promise<void> {
  const name = entry.loaded.plugin.name;
  try {
    for (const hook of entry.scope.startHooks) {
      await runBounded(`plugin '${name}' start`, startMs, hook);
    }
  } catch (error) {
    throw new BootError(
      bootErrorCode(error) ?? 'STACKD_START_FAILED',
      `plugin '${name}' failed to start: ${describeError(error)}`,
      { cause: error },
    );
  }
  entry.started = true;
  capabilities.markStarted(name);
  logger.debug(`plugin '${name}' started`);
}

/** Stop hooks in reverse order, then the background tasks, each bounded; failures are logged. */
export async function stopPlugin(
  entry: ActivePlugin,
  stopMs: number,
  capabilities: CapabilityRegistry,
  logger: Logger,
): Promise<void> {
  const name = entry.loaded.plugin.name;
  capabilities.markStopped(name);
  for (const hook of [...entry.scope.stopHooks].reverse()) {
    await runBounded(`plugin '${name}' stop`, stopMs, hook, STOP_NOTICE_MS).catch(
      (error: unknown) => logger.error(describeError(error)),
    );
  }
  await runBounded(`plugin '${name}' background tasks`, stopMs, () => entry.tasks.stop()).catch(
    (error: unknown) => logger.error(describeError(error)),
  );
  entry.scope.dispose();
  entry.storage.closeAll();
}
