/**
 * The supervisor plugin's error codes: the `code` of the error bodies it answers. One constant each, so
 * every code is spelled once and a search finds every place that answers it. `as const` keeps
 * each one's literal type inside object literals (a typed `code` field).
 */

export const CONFIG_CHANGED = 'CONFIG_CHANGED' as const;
export const CONFIG_INVALID = 'CONFIG_INVALID' as const;
export const CONFIG_STALE = 'CONFIG_STALE' as const;
export const CONFIG_VERSION_NOT_FOUND = 'CONFIG_VERSION_NOT_FOUND' as const;
export const LOGS_PROCESS_NAME_REQUIRED = 'LOGS_PROCESS_NAME_REQUIRED' as const;
export const PROCESS_CONFIG_INVALID = 'PROCESS_CONFIG_INVALID' as const;
export const PROCESS_NOT_FOUND = 'PROCESS_NOT_FOUND' as const;
export const PROCESS_SELF_STOP = 'PROCESS_SELF_STOP' as const;
export const PROCESS_START_CANCELLED = 'PROCESS_START_CANCELLED' as const;
export const PROCESS_START_FAILED = 'PROCESS_START_FAILED' as const;
