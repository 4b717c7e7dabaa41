/** Typed services between plugins: who provides which ref, and who may use it. */
import type { ServiceRef } from '../../sdk/services.js';

/** All provided services of one host. */
export class ServiceRegistry {
  private readonly services = new Map<string, { provider: string; implementation: unknown }>();

  /**
   * Implementations that replace whatever a plugin provides under the same ref (the test
   * harness's `overrides`): the owner still registers, users get the override.
   */
  constructor(private readonly overrides: ReadonlyMap<string, unknown> = new Map()) {}

  /** Provide a ref; the plugin must own it (or it is an open `core.*` extension point). */
  provide<T>(plugin: string, ref: ServiceRef<T>, implementation: T): void {
    if (ref.owner !== plugin && ref.owner !== 'core') {
      throw new Error(
        `plugin '${plugin}' cannot provide service '${ref.id}', which belongs to plugin '${ref.owner}'`,
      );
    }
    const existing = this.services.get(ref.id);
    if (existing !== undefined) {
      throw new Error(
        `service '${ref.id}' is provided by both plugin '${existing.provider}' and plugin '${plugin}'`,
      );
    }
    this.services.set(ref.id, { provider: plugin, implementation });
  }

  /** The implementation, or undefined when nobody provides it. */
  lookup<T>(ref: ServiceRef<T>): T | undefined {
    if (this.overrides.has(ref.id)) return this.overrides.get(ref.id) as T;
    return this.services.get(ref.id)?.implementation as T | undefined;
  }

  /** Which plugin provides a ref. */
  providerOf(ref: ServiceRef<unknown>): string | undefined {
    return this.services.get(ref.id)?.provider;
  }
}
