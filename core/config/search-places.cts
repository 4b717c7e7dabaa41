/**
 * The file names the host searches for in its working directory, in order. Kept alone in this
 * module so the terminal client finds the same file without loading the host's config code.
 */
export const CONFIG_SEARCH_PLACES: readonly string[] = [
  'stackd.json',
  '.stackdrc',
  '.stackdrc.json',
  'stackd.config.json',
  '.config/stackd.json',
];
