/**
 * The client's subcommands, in one place: the bin dispatches on them and completion offers them.
 * A leaf module with no imports, so the bin stays cheap to load.
 */
export const CLIENT_COMMANDS = [
  'status',
  'start',
  'stop',
  'restart',
  'logs',
  'config',
  'graph',
  'login',
  'logout',
  'users',
  'completion',
] as const;

/** Subcommands whose arguments are process names. */
export const NAME_COMMANDS = ['status', 'start', 'stop', 'restart', 'logs'] as const;
