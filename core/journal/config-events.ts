/**
 * `config.changed`: which paths of the configuration changed and who changed them. Only paths
 * are recorded, never values: the document holds API keys and passwords.
 */
import { Type } from '@sinclair/typebox';
import { isJsonRecord, type ConfigChange } from '../../sdk/config.js';
import { defineEventKind } from '../../sdk/journal.js';
import type { ConfigStore } from '../config/config-store.js';
import type { EventJournal } from './event-journal.js';

// Deep enough to name a process block's field (`sonarr.instances.Anime.port`), short enough
// that one large change stays a small event.
const MAX_DEPTH = 4;
const MAX_PATHS = 50;

/** The kind core records for every configuration change. */
export const configChanged = defineEventKind({
  kind: 'config.changed',
  description: 'The configuration changed (paths only, never values).',
  subject: 'Always `config`.',
  data: Type.Object({
    paths: Type.Array(Type.String(), { description: `Dotted paths, at most ${MAX_PATHS}.` }),
    truncated: Type.Boolean(),
    reason: Type.Union([Type.String(), Type.Null()]),
    by: Type.Union([Type.String(), Type.Null()], { description: 'Username, when signed in.' }),
  }),
});

/** Record every change of the store; returns the unsubscribe function. */
export function recordConfigChanges(journal: EventJournal, store: ConfigStore): () => void {
  journal.declare('core', configChanged);
  return store.onChange((change: ConfigChange) => {
    const paths: string[] = [];
    changedPaths(change.previous, change.current, [], paths);
    if (paths.length === 0) return;
    journal.publish('core', configChanged, {
      subject: 'config',
      data: {
        paths: paths.slice(0, MAX_PATHS),
        truncated: paths.length > MAX_PATHS,
        reason: change.reason ?? null,
        by: change.by ?? null,
      },
    });
  });
}

function changedPaths(before: unknown, after: unknown, at: string[], out: string[]): void {
  if (out.length > MAX_PATHS) return;
  // A section added or removed whole is named by its leaves, like an edited one.
  const left = before === undefined && isJsonRecord(after) ? {} : before;
  const right = after === undefined && isJsonRecord(before) ? {} : after;
  if (isJsonRecord(left) && isJsonRecord(right) && at.length < MAX_DEPTH) {
    for (const key of new Set([...Object.keys(left), ...Object.keys(right)]))
      changedPaths(left[key], right[key], [...at, key], out);
    return;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) out.push(at.join('.'));
}
