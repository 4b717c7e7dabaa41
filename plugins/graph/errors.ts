/**
 * The graph plugin's error codes: the `code` of the error bodies it answers. One constant each, so
 * every code is spelled once and a search finds every place that answers it. `as const` keeps
 * each one's literal type inside object literals (a typed `code` field).
 */

export const GRAPH_CONFIG_INVALID = 'GRAPH_CONFIG_INVALID' as const;
export const GRAPH_PROCESS_NAME_REQUIRED = 'GRAPH_PROCESS_NAME_REQUIRED' as const;
export const PROCESS_NOT_FOUND = 'PROCESS_NOT_FOUND' as const;
