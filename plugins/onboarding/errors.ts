/**
 * The onboarding plugin's error codes: the `code` of the error bodies it answers. One constant each, so
 * every code is spelled once and a search finds every place that answers it. `as const` keeps
 * each one's literal type inside object literals (a typed `code` field).
 */

export const ONBOARDING_NOT_CORE_SERVICE = 'ONBOARDING_NOT_CORE_SERVICE' as const;
export const ONBOARDING_NOT_OPTIONAL_SERVICE = 'ONBOARDING_NOT_OPTIONAL_SERVICE' as const;
export const ONBOARDING_NO_FREE_PORT = 'ONBOARDING_NO_FREE_PORT' as const;
export const ONBOARDING_START_FAILED = 'ONBOARDING_START_FAILED' as const;
export const ONBOARDING_UNKNOWN_DEPENDENCY = 'ONBOARDING_UNKNOWN_DEPENDENCY' as const;
export const ONBOARDING_UNKNOWN_SERVICE = 'ONBOARDING_UNKNOWN_SERVICE' as const;
export const PROCESS_SETUP_FAILED = 'PROCESS_SETUP_FAILED' as const;
export const SERVICE_CONFIG_FILE_NOT_FOUND = 'SERVICE_CONFIG_FILE_NOT_FOUND' as const;
export const SERVICE_CONFIG_INVALID = 'SERVICE_CONFIG_INVALID' as const;
export const SERVICE_CONFIG_NO_FILE = 'SERVICE_CONFIG_NO_FILE' as const;
export const SERVICE_CONFIG_UNSUPPORTED_FORMAT = 'SERVICE_CONFIG_UNSUPPORTED_FORMAT' as const;
