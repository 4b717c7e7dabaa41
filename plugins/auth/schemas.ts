/**
 * Wire shapes of the auth routes (docs/decisions.md §6–8), snake_case as the API contract writes them.
 * Format rules live here so core's validation answers 422 naming the field.
 */
import { ErrorBody, Type, type Static } from '../../sdk/index.js';

/** Longest accepted username (the contract leaves it open; docs/decisions.md §6). */
export const USERNAME_MAX_LENGTH = 64;

export const Username = Type.String({
  minLength: 3,
  maxLength: USERNAME_MAX_LENGTH,
  pattern: '^[A-Za-z0-9_.-]+$',
  description: `3–${USERNAME_MAX_LENGTH} characters of A–Z, a–z, 0–9, '_', '.', '-'; case-sensitive.`,
});

export const Password = Type.String({
  minLength: 8,
  maxLength: 72,
  writeOnly: true,
  description: '8–72 characters. Stored as a salted scrypt hash; never returned or logged.',
});

export const Credentials = Type.Object({ username: Username, password: Password });
export type Credentials = Static<typeof Credentials>;

export const AuthStatusBody = Type.Object({
  enabled: Type.Boolean({ description: 'Authentication currently required.' }),
  has_users: Type.Boolean({ description: 'Any user account exists.' }),
  setup_skipped: Type.Boolean({ description: 'The initial setup was skipped.' }),
});

export const TokenPairBody = Type.Object({
  access_token: Type.String({ description: 'JWT (HS256), `type: access`.' }),
  refresh_token: Type.String({ description: 'JWT (HS256), `type: refresh`.' }),
  token_type: Type.Literal('bearer'),
});

const DeviceToken = Type.String({
  minLength: 1,
  maxLength: 4096,
  description:
    'Known-device token: keep it and send it with the next login of the same user. It lets ' +
    'that login skip the slowdown a guesser spread over many addresses causes for the username ' +
    '(never the per-address lockouts). It grants no access by itself.',
});

/** Login: credentials and, from a client that signed in before, its known-device token. */
export const LoginRequest = Type.Object({
  username: Username,
  password: Password,
  device_token: Type.Optional(DeviceToken),
});

/** A sign-in's answer (login): the token pair and a known-device token. */
export const SignInBody = Type.Object({
  access_token: TokenPairBody.properties.access_token,
  refresh_token: TokenPairBody.properties.refresh_token,
  token_type: Type.Literal('bearer'),
  device_token: DeviceToken,
});

export const SetupResponse = Type.Object({
  message: Type.String(),
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: Type.Literal('bearer'),
  device_token: DeviceToken,
});

export const RefreshRequest = Type.Object({
  refresh_token: Type.String({
    minLength: 1,
    description: 'A refresh token from login, setup or refresh.',
  }),
});

const TokenField = Type.String({ minLength: 1, description: 'An access token.' });

/** Verify takes the token in the body or, as the reference did, in the query string. */
export const VerifyRequest = Type.Object({ token: Type.Optional(TokenField) });
export const VerifyQuery = Type.Object({ token: Type.Optional(TokenField) });

export const VerifyResponse = Type.Object({
  valid: Type.Boolean(),
  username: Type.Union([Type.String(), Type.Null()]),
});

export const UserAccountBody = Type.Object({
  username: Type.String(),
  disabled: Type.Boolean({ description: 'Account disabled.' }),
});

export const UserListResponse = Type.Object({ users: Type.Array(UserAccountBody) });

export const CreateUserResponse = Type.Object({ message: Type.String(), username: Type.String() });

export const UsernameParams = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 256 }),
});

export const UpdateUserRequest = Type.Object({
  disabled: Type.Optional(Type.Boolean({ description: 'Disable or re-enable the account.' })),
  password: Type.Optional(
    Type.String({
      minLength: 8,
      maxLength: 72,
      writeOnly: true,
      description:
        'A new password (8–72 characters). Every sign-in (refresh token) of the user is revoked.',
    }),
  ),
  current_password: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 72,
      writeOnly: true,
      description: 'Required to change your own password; not needed to reset another user’s.',
    }),
  ),
});
export type UpdateUserRequest = Static<typeof UpdateUserRequest>;

export const UpdateUserResponse = Type.Object({
  message: Type.String(),
  username: Type.String(),
  disabled: Type.Boolean(),
  password_changed: Type.Optional(
    Type.Literal(true, { description: 'Present when the password was replaced.' }),
  ),
});

/** Error answers documented per route (core adds 401/403/413/422/500 itself). */
export const Errors = {
  badRequest: { 400: ErrorBody },
  unauthorized: { 401: ErrorBody },
  forbidden: { 403: ErrorBody },
  notFound: { 404: ErrorBody },
  tooMany: { 429: ErrorBody },
} as const;

/** A scrape token as listed (never the token itself). */
export const ScrapeTokenEntry = Type.Object({
  id: Type.String({ description: 'Identifier used to revoke the token' }),
  name: Type.String(),
  created_at: Type.String({ description: 'ISO 8601 UTC' }),
  last_used_at: Type.Union([Type.String(), Type.Null()], {
    description: 'Last scrape with it (ISO 8601 UTC, to the minute), or null',
  }),
});

/** A created scrape token: the only answer that shows the bearer token. */
export const CreatedScrapeToken = Type.Composite([
  ScrapeTokenEntry,
  Type.Object({ token: Type.String({ description: 'The bearer token; shown only here' }) }),
]);

/** Body of POST /api/auth/scrape-tokens. */
export const CreateScrapeTokenBody = Type.Object({
  name: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'What the token is for (`prometheus on nas`)',
  }),
});

/** GET /api/auth/scrape-tokens. */
export const ScrapeTokenList = Type.Object({ tokens: Type.Array(ScrapeTokenEntry) });

/** Path parameters of DELETE /api/auth/scrape-tokens/:id. */
export const ScrapeTokenParams = Type.Object({ id: Type.String({ pattern: '^[0-9a-f]{32}$' }) });
