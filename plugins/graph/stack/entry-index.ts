/**
 * Lookups over the entries of one configuration: by process name, config key, port and mount
 * point, and the rules that turn a reference (a name, a key, a display name) into entries.
 */
import type { StackKnowledge } from '../knowledge/knowledge.js';
import type { GraphEntry } from './stack-entries.js';

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** A normalized absolute path and its ancestors, nearest first: /a/b → [/a/b, /a, /]. */
export function ancestorsOf(path: string): string[] {
  const paths = [path];
  let current = path;
  while (current.length > 1) {
    const cut = current.lastIndexOf('/');
    if (cut < 0) break;
    current = cut === 0 ? '/' : current.slice(0, cut);
    paths.push(current);
  }
  return paths;
}

/** Indexes over the entries of one document. */
export class EntryIndex {
  readonly byKey = new Map<string, GraphEntry[]>();
  private readonly byName = new Map<string, GraphEntry[]>();
  private readonly byPort = new Map<number, GraphEntry[]>();
  /** Mount point → the entries providing it. */
  private readonly mountedAt = new Map<string, GraphEntry[]>();
  /** Path → the entries providing a mount point strictly below it. */
  private readonly mountedBelow = new Map<string, GraphEntry[]>();

  constructor(
    readonly entries: readonly GraphEntry[],
    private readonly knowledge: StackKnowledge,
  ) {
    for (const entry of entries) {
      push(this.byKey, entry.config_key, entry);
      push(this.byName, entry.process_name.trim().toLowerCase(), entry);
      for (const port of entry.ports) push(this.byPort, port, entry);
      for (const point of entry.mountPoints) {
        push(this.mountedAt, point, entry);
        for (const ancestor of ancestorsOf(point).slice(1))
          push(this.mountedBelow, ancestor, entry);
      }
    }
  }

  /** Is the key one whose instances belong to specific core services (zurg, rclone)? */
  isScoped(key: string): boolean {
    return this.knowledge.instanceScopedKeys.has(key);
  }

  /** Entries of a config key. */
  entriesOfKey(key: string): readonly GraphEntry[] {
    return this.byKey.get(key) ?? [];
  }

  /**
   * Entries of a key as `source` sees them, without `source`: for an instance-scoped key and a
   * source attached to core services, only the instances attached to one of the same cores.
   */
  resolveKey(key: string, source: GraphEntry): GraphEntry[] {
    const entries = this.entriesOfKey(key).filter((entry) => entry !== source);
    if (!this.isScoped(key) || source.coreRefs.length === 0) return entries;
    return entries.filter((entry) => entry.coreRefs.some((ref) => source.coreRefs.includes(ref)));
  }

  /**
   * A reference from `source`: a process name (any case) first, else a config key, display
   * name or alias (every entry of that key, scoped as in {@link resolveKey}).
   */
  resolveRef(ref: string, source: GraphEntry): GraphEntry[] {
    const token = ref.trim().toLowerCase();
    if (token === '') return [];
    const named = (this.byName.get(token) ?? []).filter((entry) => entry !== source);
    if (named.length > 0) return named;
    const key =
      this.knowledge.aliases.get(token) ?? this.knowledge.legacyCoreRefs.get(token) ?? token;
    return this.resolveKey(key, source);
  }

  /** Entries listening on a port, without `source`. */
  onPort(port: number, source: GraphEntry): GraphEntry[] {
    return (this.byPort.get(port) ?? []).filter((entry) => entry !== source);
  }

  /**
   * Entries whose mount point equals, contains or lies below `path`, without `source`. Looked
   * up through the path's ancestors, so the cost follows the path's depth, not the mount count.
   */
  mountingPath(path: string, source: GraphEntry): GraphEntry[] {
    const found = new Set<GraphEntry>();
    for (const ancestor of ancestorsOf(path))
      for (const entry of this.mountedAt.get(ancestor) ?? []) found.add(entry);
    for (const entry of this.mountedBelow.get(path) ?? []) found.add(entry);
    found.delete(source);
    return [...found];
  }
}
