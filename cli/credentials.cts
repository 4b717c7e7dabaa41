/**
 * The token pairs of `stackd login`, one per host URL, in
 * `$XDG_CONFIG_HOME/stackd/credentials.json` (else `~/.config/stackd/…`): a file only its owner
 * can read, written atomically so a crash never leaves half a token behind.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** The pair the host answered at login or refresh. */
export interface TokenPair {
  readonly access_token: string;
  readonly refresh_token: string;
}

type Store = Record<string, TokenPair>;

/** Path of the credentials file for this environment. */
export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== ''
      ? env.XDG_CONFIG_HOME
      : join(env.HOME ?? homedir(), '.config');
  return join(base, 'stackd', 'credentials.json');
}

function readStore(path: string): Store {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Store) : {};
  } catch {
    return {};
  }
}

function writeStore(path: string, store: Store): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  // The mode of writeFileSync is masked by the umask: make sure.
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}

/** The stored pair for a host, if any. */
export function loadTokens(baseUrl: string, path = credentialsPath()): TokenPair | undefined {
  const pair = readStore(path)[baseUrl];
  return pair !== undefined &&
    typeof pair.access_token === 'string' &&
    typeof pair.refresh_token === 'string'
    ? pair
    : undefined;
}

/** Store (or replace) the pair of a host. */
export function saveTokens(baseUrl: string, pair: TokenPair, path = credentialsPath()): void {
  const store = readStore(path);
  store[baseUrl] = { access_token: pair.access_token, refresh_token: pair.refresh_token };
  writeStore(path, store);
}

/** Forget a host's pair; the file goes when it holds none. */
export function forgetTokens(baseUrl: string, path = credentialsPath()): void {
  const store = readStore(path);
  if (!(baseUrl in store)) return;
  delete store[baseUrl];
  if (Object.keys(store).length === 0) rmSync(path, { force: true });
  else writeStore(path, store);
}
