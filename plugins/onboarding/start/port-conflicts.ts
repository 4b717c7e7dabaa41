/**
 * Port conflicts before a launch (docs/original-product.md §6): a block's `port` that another enabled block
 * already claims, or that something on 127.0.0.1 already listens on, moves to the next port
 * that is neither. The caller saves the new port.
 */
import { createServer } from 'node:net';
import { ConflictError } from '../../../sdk/index.js';
import type { ProcessEntry } from '../../../sdk/index.js';
import { ONBOARDING_NO_FREE_PORT } from '../errors.js';

/** True when a listener can bind 127.0.0.1:port right now (tried, then closed at once). */
export function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () =>
      server.close(() => resolve(true)),
    );
  });
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index]);
}

/** Ports claimed by the enabled blocks other than `entry` (the API's own included). */
export function claimedPorts(entry: ProcessEntry, entries: readonly ProcessEntry[]): Set<number> {
  const claimed = new Set<number>();
  for (const other of entries) {
    if (samePath(other.path, entry.path) || other.block.enabled !== true) continue;
    const { port } = other.block;
    if (typeof port === 'number' && Number.isInteger(port) && port > 0) claimed.add(port);
  }
  return claimed;
}

/**
 * The port the entry should use: null when its own is fine (or it has none), else the next free
 * one. `reserved` adds ports that are taken whatever the blocks say (the host's listen port).
 */
export async function resolvePort(
  entry: ProcessEntry,
  entries: readonly ProcessEntry[],
  options: { reserved?: readonly number[]; isFree?: (port: number) => Promise<boolean> } = {},
): Promise<number | null> {
  const { port } = entry.block;
  if (typeof port !== 'number' || !Number.isInteger(port) || port <= 0) return null;
  const isFree = options.isFree ?? canListen;
  const taken = claimedPorts(entry, entries);
  for (const reserved of options.reserved ?? []) taken.add(reserved);
  if (!taken.has(port) && (await isFree(port))) return null;
  for (let candidate = port + 1; candidate <= 65_535; candidate += 1)
    if (!taken.has(candidate) && (await isFree(candidate))) return candidate;
  throw new ConflictError(
    ONBOARDING_NO_FREE_PORT,
    `No free port at or above ${port} for ${entry.process_name}`,
    { field: 'port' },
  );
}
