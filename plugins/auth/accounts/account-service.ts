/**
 * The authentication mode and user accounts, with the state rules of docs/decisions.md §8 ("Authentication mode" and
 * "User account" tables): setup only while no user exists, enable only with users, the last
 * active user can be neither disabled nor deleted. Throws the sdk's typed errors.
 */
import {
  BadRequestError,
  ForbiddenError,
  InputError,
  NotFoundError,
  type Logger,
} from '../../../sdk/index.js';
import type { AuthStateStore } from './auth-state.js';
import type { AccountEvent } from '../events.js';
import type { PasswordHasher } from './password-hasher.js';
import type { SessionTokens } from '../tokens/session-tokens.js';
import type { TokenPair } from '../tokens/token-service.js';
import type { UserAccount, UserStore } from './user-store.js';
import {
  AUTH_CURRENT_PASSWORD_REQUIRED,
  AUTH_CURRENT_PASSWORD_WRONG,
  AUTH_LAST_ACTIVE_USER,
  AUTH_NO_USERS,
  AUTH_USERNAME_TAKEN,
  AUTH_USERS_EXIST,
  AUTH_USER_NOT_FOUND,
} from '../errors.js';

/** The authentication status object the API answers. */
export interface AuthStatus {
  readonly enabled: boolean;
  readonly has_users: boolean;
  readonly setup_skipped: boolean;
}

/** What the account rules need. */
export interface AccountServiceDeps {
  readonly users: UserStore;
  readonly state: AuthStateStore;
  readonly hasher: PasswordHasher;
  readonly sessionTokens: SessionTokens;
  readonly logger: Logger;
  /** Told of each account change (the event journal). */
  readonly onAccountEvent?: ((event: AccountEvent) => void) | undefined;
}

function usersExist(): BadRequestError {
  return new BadRequestError(
    AUTH_USERS_EXIST,
    'Users already exist; sign in with the login endpoint instead',
  );
}

function userNotFound(username: string): NotFoundError {
  return new NotFoundError(AUTH_USER_NOT_FOUND, `User '${username}' not found`);
}

function lastActiveUser(action: 'disable' | 'delete'): BadRequestError {
  return new BadRequestError(
    AUTH_LAST_ACTIVE_USER,
    `Cannot ${action} the last active user: nobody could sign in any more`,
  );
}

/** A password change: whose, by whom (null while authentication is off), and the passwords. */
export interface PasswordChange {
  readonly username: string;
  readonly actor: string | null;
  readonly newPassword: string;
  readonly currentPassword?: string | undefined;
}

/** Setup, mode switches and user management. */
export class AccountService {
  constructor(private readonly deps: AccountServiceDeps) {}

  status(): AuthStatus {
    const mode = this.deps.state.mode;
    return {
      enabled: mode.enabled,
      has_users: this.deps.users.count() > 0,
      setup_skipped: mode.setupSkipped,
    };
  }

  /** First-run setup: create the first user, turn authentication on, sign the user in. */
  async setup(username: string, password: string): Promise<TokenPair> {
    const { users, state, hasher, sessionTokens, logger } = this.deps;
    if (users.count() > 0) throw usersExist();
    const hash = await hasher.hash(password);
    // Checked again after the await: another setup may have finished meanwhile.
    const user = users.transaction(() => {
      if (users.count() > 0) throw usersExist();
      const created = users.insert(username, hash);
      if (created === undefined) throw usersExist();
      state.set({ enabled: true, setupSkipped: false });
      return created;
    });
    logger.info('setup complete: first user created, authentication enabled', { username });
    this.deps.onAccountEvent?.({ kind: 'created', username: user.username, by: null });
    return sessionTokens.issue(user);
  }

  /** Skip the wizard: authentication off, allowed in any state. */
  skipSetup(): void {
    this.deps.state.set({ enabled: false, setupSkipped: true });
    this.deps.logger.info('authentication setup skipped; authentication disabled');
  }

  enable(): void {
    if (this.deps.users.count() === 0)
      throw new BadRequestError(AUTH_NO_USERS, 'Cannot enable authentication: create a user first');
    this.deps.state.set({ enabled: true });
    this.deps.logger.info('authentication enabled');
  }

  disable(): void {
    this.deps.state.set({ enabled: false });
    this.deps.logger.info('authentication disabled; every endpoint is open');
  }

  listUsers(): UserAccount[] {
    return this.deps.users.list();
  }

  async createUser(
    username: string,
    password: string,
    by: string | null = null,
  ): Promise<UserAccount> {
    const { users, hasher, logger } = this.deps;
    const taken = (): BadRequestError =>
      new BadRequestError(AUTH_USERNAME_TAKEN, `Username '${username}' already exists`);
    if (users.find(username) !== undefined) throw taken();
    const created = users.insert(username, await hasher.hash(password));
    if (created === undefined) throw taken();
    logger.info('user created', { username });
    this.deps.onAccountEvent?.({ kind: 'created', username: created.username, by });
    return { username: created.username, disabled: created.disabled };
  }

  /** One account, or 404. */
  account(username: string): UserAccount {
    const user = this.deps.users.find(username);
    if (user === undefined) throw userNotFound(username);
    return { username: user.username, disabled: user.disabled };
  }

  /** Set the disabled flag; never leaves the system without an active user. */
  setDisabled(username: string, disabled: boolean, by: string | null = null): UserAccount {
    const { users, logger } = this.deps;
    const changed = users.transaction(() => {
      const user = users.find(username);
      if (user === undefined) throw userNotFound(username);
      if (disabled && !user.disabled && users.activeCount() <= 1) throw lastActiveUser('disable');
      users.setDisabled(username, disabled);
      return user.disabled !== disabled;
    });
    logger.info(disabled ? 'user disabled' : 'user enabled', { username });
    if (changed) this.deps.onAccountEvent?.({ kind: 'disabled', username, by, disabled });
    return { username, disabled };
  }

  /**
   * Set a new password. Changing one's own needs the current password (a stolen access token
   * alone cannot take the account over); any other signed-in user (every user administers
   * stackd) resets someone else's without it. Every refresh token of the user is revoked.
   */
  async changePassword(change: PasswordChange): Promise<void> {
    const { users, hasher, sessionTokens, logger } = this.deps;
    const { username, actor } = change;
    const record = users.findCredentials(username);
    if (record === undefined) throw userNotFound(username);
    if (actor === username) {
      if (change.currentPassword === undefined)
        throw new InputError(
          AUTH_CURRENT_PASSWORD_REQUIRED,
          'Changing your own password needs current_password',
          { field: 'current_password' },
        );
      if (!(await hasher.verify(change.currentPassword, record.passwordHash)))
        throw new ForbiddenError(AUTH_CURRENT_PASSWORD_WRONG, 'current_password is not correct');
    }
    const hash = await hasher.hash(change.newPassword);
    if (!users.setPasswordHash(username, hash)) throw userNotFound(username);
    const revoked = sessionTokens.revokeUser(username);
    logger.info('password changed; the user is signed out everywhere', {
      username,
      by: actor ?? 'anyone (authentication disabled)',
      revoked_sign_ins: revoked,
    });
    this.deps.onAccountEvent?.({ kind: 'password_changed', username, by: actor, revoked });
  }

  /** Delete a user; never the last active one. */
  deleteUser(username: string, by: string | null = null): void {
    const { users, logger } = this.deps;
    users.transaction(() => {
      const user = users.find(username);
      if (user === undefined) throw userNotFound(username);
      if (!user.disabled && users.activeCount() <= 1) throw lastActiveUser('delete');
      users.delete(username);
    });
    logger.info('user deleted', { username });
    this.deps.onAccountEvent?.({ kind: 'deleted', username, by });
  }
}
