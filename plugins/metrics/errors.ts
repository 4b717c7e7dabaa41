/**
 * The metrics plugin's error codes: the `code` of the error bodies it answers. One constant each, so
 * every code is spelled once and a search finds every place that answers it. `as const` keeps
 * each one's literal type inside object literals (a typed `code` field).
 */

export const METRICS_CONFIG_INVALID = 'METRICS_CONFIG_INVALID' as const;
export const METRICS_PROCESS_REQUIRED = 'METRICS_PROCESS_REQUIRED' as const;
export const METRICS_WINDOW_INVALID = 'METRICS_WINDOW_INVALID' as const;
