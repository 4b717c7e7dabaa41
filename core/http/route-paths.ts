/** Path rules shared by routes and streams: parameters and the served aliases (docs/decisions.md §1). */

/** `:name` segments of a path, in order. */
export function parameterNames(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}

/** `/ai/profiles/:profile_id` → `/ai/profiles/{profile_id}` (OpenAPI form). */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** A path with parameter names erased, for collision checks. */
export function pathShape(path: string): string {
  return path.replace(/:[A-Za-z0-9_]+/g, ':');
}

/**
 * Every path a route is served at: its own path, the same under `/api`, and for own paths that
 * already start with `/api`, the path without it. Trailing-slash forms answer too, as the
 * reference's `/process/` and `/config/` did.
 */
export function servedPaths(path: string): string[] {
  const base = path.startsWith('/api/') ? [path, path.slice(4)] : [path, `/api${path}`];
  const withSlash = base.flatMap((candidate) =>
    candidate.endsWith('/') ? [candidate] : [candidate, `${candidate}/`],
  );
  return [...new Set(withSlash)];
}

/** A matcher for 405 detection: does `path` fit the pattern? */
export function patternMatcher(pattern: string): (path: string) => boolean {
  const source = pattern
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  const regex = new RegExp(`^${source}$`);
  return (path) => regex.test(path);
}
