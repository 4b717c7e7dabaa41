/** Named rewrite presets (data): each is a list of prefix rules applied before the request's. */

/** One prefix rewrite. */
export interface RewriteRule {
  readonly from_prefix: string;
  readonly to_prefix: string;
}

/** Presets by name (docs/original-product.md §1). */
export const PRESETS: Readonly<Record<string, readonly RewriteRule[]>> = {
  decypharr_beta_consolidated: [
    {
      from_prefix: '/mnt/debrid/decypharr/realdebrid/__all__',
      to_prefix: '/mnt/debrid/decypharr/__all__',
    },
  ],
};

/** The rules of the named presets (trimmed names; unknown names are reported, not applied). */
export function presetRules(names: readonly string[]): {
  rules: RewriteRule[];
  unknown: string[];
} {
  const rules: RewriteRule[] = [];
  const unknown: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (name === '') continue;
    const preset = PRESETS[name];
    if (preset === undefined) unknown.push(name);
    else rules.push(...preset);
  }
  return { rules, unknown };
}
