/** `stackd login`, `stackd logout`, `stackd users list|add|disable|enable`. */
import { detailOf } from '../api.cjs';
import type { ClientContext } from '../context.cjs';
import { forgetTokens, loadTokens, saveTokens, type TokenPair } from '../credentials.cjs';
import { CliError, EXIT } from '../errors.cjs';
import { table } from '../output.cjs';
import { askHidden, askLine, readStdin } from '../prompt.cjs';

export interface LoginOptions {
  readonly username?: string;
  readonly passwordStdin: boolean;
}

/** Run `login`: ask, exchange for a token pair, store it (0600) for this host. */
export async function login(context: ClientContext, options: LoginOptions): Promise<void> {
  const username = options.username ?? (await askLine('Username: ')).trim();
  if (username === '') throw new CliError('no username: pass -u NAME', EXIT.usage);
  const password = options.passwordStdin ? await readStdin() : await askHidden('Password: ');
  const response = await context.api.send('POST', '/api/auth/login', {
    body: { username, password },
  });
  if (response.status === 401 || response.status === 403)
    throw new CliError(`login refused: ${detailOf(response)}`, EXIT.unauthorised);
  if (response.status !== 200)
    throw new CliError(
      `login failed: ${detailOf(response)} (HTTP ${response.status})`,
      EXIT.failed,
    );
  saveTokens(context.api.baseUrl, response.body as TokenPair);
  context.out(`logged in to ${context.api.hostPort} as ${username}\n`);
}

/** Run `logout`: revoke the refresh token on the host (best effort) and forget the pair. */
export async function logout(context: ClientContext): Promise<void> {
  const pair = loadTokens(context.api.baseUrl);
  if (pair === undefined) {
    context.out(`not logged in to ${context.api.hostPort}\n`);
    return;
  }
  try {
    await context.api.send('POST', '/api/auth/logout', {
      body: { refresh_token: pair.refresh_token },
    });
  } catch {
    // An unreachable host: the stored tokens are forgotten all the same.
  }
  forgetTokens(context.api.baseUrl);
  context.out(`logged out of ${context.api.hostPort}\n`);
}

interface UserList {
  readonly users: readonly { username: string; disabled: boolean }[];
}

/** Run `users list`. */
export async function usersList(context: ClientContext, json: boolean): Promise<void> {
  const body = (await context.api.call('GET', '/api/auth/users')) as UserList;
  if (json) {
    context.out(`${JSON.stringify(body, null, 2)}\n`);
    return;
  }
  const rows = body.users.map((user) => [
    user.username,
    user.disabled ? context.paint('red', 'disabled') : context.paint('green', 'active'),
  ]);
  context.out(
    `${table([['USERNAME', 'STATE'].map((h) => context.paint('bold', h)), ...rows]).join('\n')}\n`,
  );
}

/** Run `users add`. */
export async function usersAdd(
  context: ClientContext,
  username: string,
  passwordStdin: boolean,
): Promise<void> {
  let password: string;
  if (passwordStdin) password = await readStdin();
  else {
    password = await askHidden(`Password for ${username}: `);
    if ((await askHidden('Again: ')) !== password)
      throw new CliError('the passwords differ: nothing changed', EXIT.failed);
  }
  await context.api.call('POST', '/api/auth/users', { body: { username, password } });
  context.out(`user ${username} added\n`);
}

/** Run `users disable` / `users enable`. */
export async function usersSetDisabled(
  context: ClientContext,
  username: string,
  disabled: boolean,
): Promise<void> {
  await context.api.call('PUT', `/api/auth/users/${encodeURIComponent(username)}`, {
    body: { disabled },
  });
  context.out(`user ${username} ${disabled ? 'disabled' : 'enabled'}\n`);
}
