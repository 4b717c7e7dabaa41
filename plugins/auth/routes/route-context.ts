/** What every auth route file shares. */

/** OpenAPI tag of every auth route. */
export const AUTH_TAGS = ['auth'] as const;
