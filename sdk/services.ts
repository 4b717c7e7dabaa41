/**
 * Typed service references: how plugins offer each other services. A ref names its owner; a
 * plugin provides only refs it owns (or open `core.*` extension points), and uses only refs of
 * plugins it declared in `dependsOn` / `optionalDependsOn`.
 */

/** A typed token for a service one plugin provides and others use. */
export interface ServiceRef<T> {
  /** Unique id, `owner.noun` (for example `supervisor.processes`). */
  readonly id: string;
  /** Plugin that provides it, or `core` for an open extension point any one plugin may fill. */
  readonly owner: string;
  /** Phantom field carrying the service type; never set at runtime. */
  readonly __type?: T;
}

/** Create a service ref. Keep refs in `sdk/contracts/` (built-ins) or your package's exports. */
export function createServiceRef<T>(options: { id: string; owner: string }): ServiceRef<T> {
  return Object.freeze({ id: options.id, owner: options.owner });
}
