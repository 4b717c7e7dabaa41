/**
 * What the graph knows about media-stack services: the static maps, the conditional startup
 * rules, mount providers, integrations and display names. All of it is data shipped in
 * `data/*.json` and extendable from the plugin's config slice (see knowledge-build.ts).
 */
import type { SignalName, TruthTable } from './signals.js';

/** A static core dependency, optionally dropped when a field of the core's block has a value. */
export interface CoreDependency {
  readonly key: string;
  readonly unless?: { readonly field: string; readonly in: readonly string[] };
}

/**
 * One conditional startup rule, applied in file order to the map built from `base`.
 * - `add_enabled`: each dependent gains the listed keys that are enabled.
 * - `replace_with_enabled`: each dependent's set becomes the enabled ones among the keys, when
 *   at least one is enabled.
 * - `add_when_own_flag`: a dependent with an enabled block/instance whose `flag` is exactly
 *   true gains the keys.
 * - `mount_providers`: a mount key gains the providers its enabled instances use.
 * "Enabled" for a key: its block or one of its instances is enabled (and, with
 * `instance_flag`, has that flag set to true).
 */
export type ConditionalRule =
  | {
      readonly kind: 'add_enabled' | 'replace_with_enabled';
      readonly dependents: readonly string[];
      readonly keys: readonly string[];
      readonly instance_flag?: string;
    }
  | {
      readonly kind: 'add_when_own_flag';
      readonly dependents: readonly string[];
      readonly flag: string;
      readonly keys: readonly string[];
    }
  | { readonly kind: 'mount_providers'; readonly dependents: readonly string[] };

/** A service a mount process (rclone) can mount, and when an instance uses it. */
export interface MountProvider {
  readonly signal: SignalName;
  readonly key: string;
  readonly when_flag?: string;
  readonly when_key_type?: string;
  readonly when_core_ref?: string;
  /** Only provider instances attached to the mount's own core service. */
  readonly scope_by_core?: boolean;
}

/** A soft link map: dependent key → keys it integrates with, under one signal. */
export interface SoftLinkMap {
  readonly signal: SignalName;
  readonly links: ReadonlyMap<string, readonly string[]>;
}

/** Everything the derivation consults besides the configuration document. */
export interface StackKnowledge {
  readonly coreServices: ReadonlyMap<string, readonly CoreDependency[]>;
  readonly instanceScopedKeys: ReadonlySet<string>;
  readonly legacyCoreRefs: ReadonlyMap<string, string>;
  readonly nonCoreDependencies: ReadonlyMap<string, readonly string[]>;
  readonly conditionalBase: ReadonlyMap<string, readonly string[]>;
  readonly conditionalRules: readonly ConditionalRule[];
  readonly mountKeys: ReadonlySet<string>;
  readonly mountProviders: readonly MountProvider[];
  readonly softLinks: readonly SoftLinkMap[];
  readonly displayNames: ReadonlyMap<string, string>;
  /** Lower-cased alias or display name → config key. */
  readonly aliases: ReadonlyMap<string, string>;
  readonly truthTable: TruthTable;
}

/** The raw contents of the shipped data files, by file base name. */
export interface KnowledgeFiles {
  readonly signals: unknown;
  readonly 'core-services': unknown;
  readonly 'non-core-dependencies': unknown;
  readonly 'conditional-startup': unknown;
  readonly 'mount-providers': unknown;
  readonly integrations: unknown;
  readonly 'display-names': unknown;
}

/** Extensions from the plugin config slice (`stackd.graph`). */
export interface KnowledgeExtensions {
  readonly extra_core_services: Readonly<Record<string, readonly string[]>>;
  readonly extra_dependencies: Readonly<Record<string, readonly string[]>>;
  readonly extra_integrations: Readonly<Record<string, readonly string[]>>;
  readonly display_names: Readonly<Record<string, string>>;
  readonly aliases: Readonly<Record<string, string>>;
}
