/**
 * The auth plugin's error codes: the `code` of the error bodies it answers. One constant each, so
 * every code is spelled once and a search finds every place that answers it. `as const` keeps
 * each one's literal type inside object literals (a typed `code` field).
 */

export const AUTH_CHECK_FAILED = 'AUTH_CHECK_FAILED' as const;
export const AUTH_CURRENT_PASSWORD_REQUIRED = 'AUTH_CURRENT_PASSWORD_REQUIRED' as const;
export const AUTH_CURRENT_PASSWORD_WRONG = 'AUTH_CURRENT_PASSWORD_WRONG' as const;
export const AUTH_INVALID_CREDENTIALS = 'AUTH_INVALID_CREDENTIALS' as const;
export const AUTH_INVALID_REFRESH_TOKEN = 'AUTH_INVALID_REFRESH_TOKEN' as const;
export const AUTH_INVALID_TOKEN = 'AUTH_INVALID_TOKEN' as const;
export const AUTH_LAST_ACTIVE_USER = 'AUTH_LAST_ACTIVE_USER' as const;
export const AUTH_NOTHING_TO_UPDATE = 'AUTH_NOTHING_TO_UPDATE' as const;
export const AUTH_NOT_ENABLED = 'AUTH_NOT_ENABLED' as const;
export const AUTH_NOT_READY = 'AUTH_NOT_READY' as const;
export const AUTH_NO_USERS = 'AUTH_NO_USERS' as const;
export const AUTH_RATE_LIMITED = 'AUTH_RATE_LIMITED' as const;
export const AUTH_REFRESH_TOKEN_REVOKED = 'AUTH_REFRESH_TOKEN_REVOKED' as const;
export const AUTH_REQUIRED = 'AUTH_REQUIRED' as const;
export const AUTH_SCRAPE_TOKEN_NOT_FOUND = 'AUTH_SCRAPE_TOKEN_NOT_FOUND' as const;
export const AUTH_TOKEN_MISSING = 'AUTH_TOKEN_MISSING' as const;
export const AUTH_TOKEN_SCOPE = 'AUTH_TOKEN_SCOPE' as const;
export const AUTH_USERNAME_TAKEN = 'AUTH_USERNAME_TAKEN' as const;
export const AUTH_USERS_EXIST = 'AUTH_USERS_EXIST' as const;
export const AUTH_USER_DISABLED = 'AUTH_USER_DISABLED' as const;
export const AUTH_USER_NOT_FOUND = 'AUTH_USER_NOT_FOUND' as const;
export const AUTH_USER_REVOKED = 'AUTH_USER_REVOKED' as const;
