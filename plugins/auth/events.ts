/** The auth plugin's journal events (never a password or a token). */
import { defineEventKind, StringEnum, Type, type EventBus } from '../../sdk/index.js';

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

const ByUser = Type.Object({
  by: Type.Union([Type.String(), Type.Null()], {
    description: 'The signed-in user who did it; null while authentication is off.',
  }),
});

/** An account's life: created, disabled, re-enabled, deleted (never a password or hash). */
export const userCreated = defineEventKind({
  kind: 'auth.user.created',
  description: 'A user account was created (by setup or by a user).',
  subject: 'The username.',
  data: ByUser,
});

export const userDisabled = defineEventKind({
  kind: 'auth.user.disabled',
  description: 'A user account was disabled (`disabled: true`) or re-enabled (`false`).',
  subject: 'The username.',
  data: Type.Composite([ByUser, Type.Object({ disabled: Type.Boolean() })]),
});

export const userDeleted = defineEventKind({
  kind: 'auth.user.deleted',
  description: 'A user account was deleted.',
  subject: 'The username.',
  data: ByUser,
});

export const passwordChanged = defineEventKind({
  kind: 'auth.user.password_changed',
  description: "A user's password was changed; every sign-in of that user was revoked.",
  subject: 'The username whose password changed.',
  data: Type.Composite([ByUser, Type.Object({ sign_ins_revoked: Type.Integer({ minimum: 0 }) })]),
});

/** What the account rules report, for the journal. */
export type AccountEvent =
  | { readonly kind: 'created' | 'deleted'; readonly username: string; readonly by: string | null }
  | {
      readonly kind: 'disabled';
      readonly username: string;
      readonly by: string | null;
      readonly disabled: boolean;
    }
  | {
      readonly kind: 'password_changed';
      readonly username: string;
      readonly by: string | null;
      readonly revoked: number;
    };

/** The account kinds, declared together. */
export const USER_EVENT_KINDS = [userCreated, userDisabled, userDeleted, passwordChanged] as const;

/** Record an account change in the journal. */
export function journalAccountEvent(events: EventBus, event: AccountEvent): void {
  const subject = event.username;
  switch (event.kind) {
    case 'created':
      return events.publish(userCreated, { subject, data: { by: event.by } });
    case 'deleted':
      return events.publish(userDeleted, { subject, data: { by: event.by } });
    case 'disabled':
      return events.publish(userDisabled, {
        subject,
        data: { by: event.by, disabled: event.disabled },
      });
    case 'password_changed':
      return events.publish(passwordChanged, {
        subject,
        data: { by: event.by, sign_ins_revoked: event.revoked },
      });
  }
}
