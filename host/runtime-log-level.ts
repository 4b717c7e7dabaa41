/**
 * GET/POST /process/runtime-log-level: turn DEBUG logging of stackd itself on for a while without
 * editing the configuration (DUMB's dashboard offers this on its API service page). The override
 * lives in memory: a restart goes back to `api_service.log_level`.
 */
import { Type, defineRoute, eraseRoute, type AnyRouteDefinition } from '../sdk/index.js';
import type { LogLevel } from '../sdk/logger.js';
import type { LogSink } from '../core/logging/logger.js';

const DUMB_LEVEL: Record<LogLevel, string> = {
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARNING',
  error: 'ERROR',
};

const LevelState = Type.Object({
  configured_level: Type.String({ description: 'From api_service.log_level (DEBUG … ERROR)' }),
  effective_level: Type.String({ description: 'The threshold in effect now' }),
  debug_enabled: Type.Boolean(),
  override_active: Type.Boolean({ description: 'A runtime override is on' }),
  resets_on_restart: Type.Boolean({ description: 'Always true: overrides are never saved' }),
});

function stateOf(sink: LogSink) {
  const { configured, effective, overridden } = sink.levels();
  return {
    configured_level: DUMB_LEVEL[configured],
    effective_level: DUMB_LEVEL[effective],
    debug_enabled: effective === 'debug',
    override_active: overridden,
    resets_on_restart: true,
  };
}

export const RUNTIME_LOG_LEVEL_FLAG = 'runtime_api_log_level';

export function runtimeLogLevelRoutes(sink: LogSink): AnyRouteDefinition[] {
  return [
    eraseRoute(
      defineRoute({
        method: 'GET',
        path: '/process/runtime-log-level',
        summary: "stackd's own log level: configured and in effect",
        tags: ['host'],
        schema: { response: LevelState },
        handler: () => stateOf(sink),
      }),
    ),
    eraseRoute(
      defineRoute({
        method: 'POST',
        path: '/process/runtime-log-level',
        summary: 'Turn a temporary DEBUG override of stackd’s log on or off',
        description:
          '`debug_enabled: true` logs at DEBUG until turned off or stackd restarts; `false` ' +
          'goes back to the configured level. Nothing is written to the configuration.',
        tags: ['host'],
        schema: {
          body: Type.Object({ debug_enabled: Type.Boolean() }, { additionalProperties: false }),
          response: LevelState,
        },
        handler: ({ body }) => {
          sink.overrideLevel(body.debug_enabled ? 'debug' : null);
          return stateOf(sink);
        },
      }),
    ),
  ];
}
