/**
 * The 12 dependency signals (docs/original-product.md §7), their strengths and the rule that combines the
 * strengths of several signals on one row or edge. The descriptions are data
 * (`data/signals.json`); the names are code because derivation logic is written per signal.
 */

/** Every signal a relation can carry. */
export const SIGNAL_NAMES = [
  'core_service_map',
  'core_service_fields',
  'wait_for_url',
  'wait_for_dir',
  'wait_for_mounts',
  'rclone_provider_zurg',
  'rclone_provider_decypharr',
  'rclone_provider_nzbdav',
  'zilean_optional_integration',
  'non_core_dependency_map',
  'conditional_startup_map',
  'documented_integration',
] as const;

/** One signal name. */
export type SignalName = (typeof SIGNAL_NAMES)[number];

/** How strongly a relation binds: blocks start, is configured, or only integrates. */
export type Strength = 'hard_runtime' | 'hard_configured' | 'soft_linkage';

/** `hard` for both hard strengths, `linkage` for soft linkage. */
export type Classification = 'hard' | 'linkage';

/** One row of the truth table. */
export interface SignalFacts {
  readonly classification: Classification;
  readonly strength: Strength;
  readonly description: string;
}

/** The truth table: every signal with its facts (docs/decisions.md §17: an object keyed by signal). */
export type TruthTable = Readonly<Record<SignalName, SignalFacts>>;

const STRENGTH_OF: Readonly<Record<SignalName, Strength>> = {
  core_service_map: 'hard_runtime',
  core_service_fields: 'hard_configured',
  wait_for_url: 'hard_runtime',
  wait_for_dir: 'hard_runtime',
  wait_for_mounts: 'hard_runtime',
  rclone_provider_zurg: 'hard_runtime',
  rclone_provider_decypharr: 'hard_runtime',
  rclone_provider_nzbdav: 'hard_runtime',
  zilean_optional_integration: 'soft_linkage',
  non_core_dependency_map: 'hard_runtime',
  conditional_startup_map: 'hard_runtime',
  documented_integration: 'soft_linkage',
};

const SIGNAL_SET: ReadonlySet<string> = new Set(SIGNAL_NAMES);

/** True when `name` is one of the 12 signals. */
export function isSignalName(name: string): name is SignalName {
  return SIGNAL_SET.has(name);
}

/** The strength one signal carries. */
export function strengthOfSignal(signal: SignalName): Strength {
  return STRENGTH_OF[signal];
}

/**
 * Strength of a row or edge carrying several signals: hard_runtime if any signal is, else
 * hard_configured if any is, else soft_linkage. No signals at all counts as hard_configured
 * (the original's default for an unknown signal).
 */
export function combineStrength(signals: Iterable<SignalName>): Strength {
  let sawAny = false;
  let sawConfigured = false;
  for (const signal of signals) {
    sawAny = true;
    const strength = STRENGTH_OF[signal];
    if (strength === 'hard_runtime') return 'hard_runtime';
    if (strength === 'hard_configured') sawConfigured = true;
  }
  return sawConfigured || !sawAny ? 'hard_configured' : 'soft_linkage';
}

/** `linkage` for soft linkage, `hard` otherwise. */
export function classify(strength: Strength): Classification {
  return strength === 'soft_linkage' ? 'linkage' : 'hard';
}

/**
 * Does a relation with these signals order the start? Every hard_runtime signal does except
 * `core_service_map`: that map says which services a core needs attached (created with it at
 * onboarding); the reference orders the boot by the conditional map and the waits only. Using it
 * would also put every provider it lists the wrong way round (infinidysk → rclone while the
 * rclone mount waits for infinidysk), a cycle. hard_configured and soft links never block.
 */
export function ordersStartup(signals: Iterable<SignalName>): boolean {
  for (const signal of signals)
    if (signal !== 'core_service_map' && STRENGTH_OF[signal] === 'hard_runtime') return true;
  return false;
}

/** Signals sorted by name, each once (the order rows and edges show them in). */
export function sortedSignals(signals: Iterable<SignalName>): SignalName[] {
  return [...new Set(signals)].sort();
}

/**
 * Build the truth table from the shipped descriptions. Strength and classification come from
 * code so the data file cannot contradict the derivation.
 */
export function buildTruthTable(descriptions: Readonly<Record<string, string>>): TruthTable {
  const table = {} as Record<SignalName, SignalFacts>;
  for (const signal of SIGNAL_NAMES) {
    const strength = STRENGTH_OF[signal];
    table[signal] = {
      classification: classify(strength),
      strength,
      description: descriptions[signal] ?? signal,
    };
  }
  return table;
}
