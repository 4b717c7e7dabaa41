/**
 * The auth plugin's config slice (`stackd.auth` in the configuration file). Every field has a
 * default, so an absent slice gives the contract's lifetimes (access 60 min, refresh 30 days).
 */
import { Type, type Static } from '../../sdk/index.js';

const DAY_SEC = 24 * 60 * 60;

/** Login throttling (docs/decisions.md §10): failures per username and per client address back off. */
export const LoginRateLimitConfig = Type.Object(
  {
    max_failures_per_user: Type.Integer({
      minimum: 1,
      default: 5,
      description:
        'Failed logins for one username from one client address, within the window, before that ' +
        'address is locked for that username (other addresses are not affected).',
    }),
    max_failures_per_address: Type.Integer({
      minimum: 1,
      default: 20,
      description: 'Failed logins from one client address, within the window, before it is locked.',
    }),
    slowdown_after_failures: Type.Integer({
      minimum: 1,
      default: 10,
      description:
        'Failed logins for one username from any addresses, within the window, after which its ' +
        'attempts are spaced slowdown_interval_ms apart (addresses that signed in as it lately skip).',
    }),
    slowdown_interval_ms: Type.Integer({
      minimum: 0,
      maximum: 60_000,
      default: 1000,
      description: 'Spacing of login attempts for a username under slowdown.',
    }),
    window_sec: Type.Integer({
      minimum: 1,
      default: 15 * 60,
      description: 'Failures older than this (since the last failure) are forgotten.',
    }),
    lockout_base_sec: Type.Integer({
      minimum: 1,
      default: 30,
      description: 'First lockout; every further failure doubles it.',
    }),
    lockout_max_sec: Type.Integer({
      minimum: 1,
      default: 15 * 60,
      description: 'Upper bound of one lockout.',
    }),
  },
  { default: {} },
);

/** The whole slice. */
export const AuthConfig = Type.Object({
  access_token_ttl_sec: Type.Integer({
    minimum: 1,
    maximum: 30 * DAY_SEC,
    default: 60 * 60,
    description: 'Access token lifetime in seconds (default 60 minutes).',
  }),
  refresh_token_ttl_sec: Type.Integer({
    minimum: 1,
    maximum: 365 * DAY_SEC,
    default: 30 * DAY_SEC,
    description: 'Refresh token lifetime in seconds (default 30 days).',
  }),
  refresh_reuse_grace_sec: Type.Integer({
    minimum: 0,
    maximum: 60,
    default: 10,
    description:
      'A refresh token used again within this many seconds of its first use still gets a new pair ' +
      '(browser tabs refreshing at once); later reuse revokes the whole sign-in.',
  }),
  scrypt_cost_log2: Type.Integer({
    minimum: 14,
    maximum: 20,
    default: 15,
    description:
      'scrypt N as a power of two for new password hashes; stored hashes keep their own cost.',
  }),
  login_rate_limit: LoginRateLimitConfig,
});

/** The validated slice, defaults applied. */
export type AuthConfig = Static<typeof AuthConfig>;
/** Rate limit part of the slice. */
export type LoginRateLimitConfig = Static<typeof LoginRateLimitConfig>;
