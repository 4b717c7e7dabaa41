/** The auth plugin's journal events (never a password or a token). */
import { defineEventKind, StringEnum, Type } from '../../sdk/index.js';

/** A sign-in attempt that reached the password check. */
export const loginEvent = defineEventKind({
  kind: 'auth.login',
  description: 'A sign-in attempt: ok, failed (wrong username or password) or disabled account.',
  subject: 'The username as typed.',
  data: Type.Object({
    outcome: StringEnum(['ok', 'failed', 'disabled'] as const),
    ip: Type.String({ description: 'The client address.' }),
  }),
});
