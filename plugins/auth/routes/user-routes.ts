/**
 * User management (docs/decisions.md §6, §8). Needs a token while authentication is enabled;
 * open while it is disabled (docs/decisions.md §8).
 */
import { InputError, MessageBody, reply, defineRoute } from '../../../sdk/index.js';
import {
  CreateUserResponse,
  Credentials,
  Errors,
  UpdateUserRequest,
  UpdateUserResponse,
  UserListResponse,
  UsernameParams,
} from '../schemas.js';
import type { AuthRuntime } from '../auth-runtime.js';
import { AUTH_TAGS } from './route-context.js';
import { AUTH_NOTHING_TO_UPDATE } from '../errors.js';

export function listUsersRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'GET',
    path: '/api/auth/users',
    tags: AUTH_TAGS,
    summary: 'List users',
    schema: { response: UserListResponse },
    handler: () => ({ users: runtime.accounts.listUsers() }),
  });
}

export function createUserRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'POST',
    path: '/api/auth/users',
    tags: AUTH_TAGS,
    summary: 'Create a user',
    description: '400 when the username exists; 422 for a bad username or password format.',
    schema: {
      body: Credentials,
      response: { 200: CreateUserResponse, ...Errors.badRequest },
    },
    handler: async (request) => {
      const user = await runtime.accounts.createUser(
        request.body.username,
        request.body.password,
        request.principal?.username ?? null,
      );
      return { message: 'User created successfully', username: user.username };
    },
  });
}

export function updateUserRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'PUT',
    path: '/api/auth/users/:username',
    tags: AUTH_TAGS,
    summary: 'Disable, re-enable a user or change their password',
    description: [
      '`disabled` disables or re-enables the account: 400 when it would disable the last active',
      'user. `password` sets a new password and revokes every refresh token of the user (they',
      'sign in again everywhere): changing your own needs `current_password` (422 naming it when',
      'missing, 403 AUTH_CURRENT_PASSWORD_WRONG when wrong); resetting another user’s does not.',
      'A body with neither field is 422. 404 for an unknown user.',
    ].join('\n'),
    schema: {
      params: UsernameParams,
      body: UpdateUserRequest,
      response: {
        200: UpdateUserResponse,
        ...Errors.badRequest,
        ...Errors.forbidden,
        ...Errors.notFound,
      },
    },
    handler: async (request) => {
      const { username } = request.params;
      const { disabled, password, current_password: currentPassword } = request.body;
      if (disabled === undefined && password === undefined)
        throw new InputError(AUTH_NOTHING_TO_UPDATE, 'Give disabled, password or both', {
          field: 'disabled',
        });
      if (password !== undefined)
        await runtime.accounts.changePassword({
          username,
          actor: request.principal?.username ?? null,
          newPassword: password,
          currentPassword,
        });
      const user =
        disabled === undefined
          ? runtime.accounts.account(username)
          : runtime.accounts.setDisabled(username, disabled, request.principal?.username ?? null);
      const message = 'User updated successfully';
      return password === undefined
        ? { message, ...user }
        : { message, ...user, password_changed: true as const };
    },
  });
}

export function deleteUserRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'DELETE',
    path: '/api/auth/users/:username',
    tags: AUTH_TAGS,
    summary: 'Delete a user',
    description: '400 for the last active user; 404 for an unknown user.',
    schema: {
      params: UsernameParams,
      response: { 200: MessageBody, ...Errors.badRequest, ...Errors.notFound },
    },
    handler: (request) => {
      runtime.accounts.deleteUser(request.params.username, request.principal?.username ?? null);
      return reply(200, { message: 'User deleted successfully' });
    },
  });
}
