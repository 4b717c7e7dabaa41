/** `GET /`: a first stop for someone who just started the host and opened its address. */

/** What the page shows. */
export interface HomePageFacts {
  readonly version: string;
  readonly uwsBuild: string;
  readonly plugins: readonly { readonly name: string; readonly version: string }[];
  /** Path prefix the page was requested under (`/api` for `/api/`), so links stay on it. */
  readonly prefix: string;
}

const LINKS: readonly (readonly [string, string])[] = [
  ['/docs', 'API explorer (try every route)'],
  ['/redoc', 'API reference (read-only)'],
  ['/openapi.json', 'OpenAPI document'],
  ['/health', 'health check'],
];

// Plugin names are checked against /^[a-z][a-z0-9-]*$/ but versions are free text.
function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );
}

/** The HTML page. */
export function homePage(facts: HomePageFacts): string {
  const links = LINKS.map(
    ([path, label]) => `<li><a href="${facts.prefix}${path}">${path}</a> — ${label}</li>`,
  ).join('\n');
  const plugins = facts.plugins
    .map((plugin) => `<li>${escapeHtml(plugin.name)} ${escapeHtml(plugin.version)}</li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>stackd ${escapeHtml(facts.version)}</title></head>
<body>
<h1>stackd ${escapeHtml(facts.version)}</h1>
<p>HTTP served by ${escapeHtml(facts.uwsBuild)}.</p>
<ul>
${links}
</ul>
<h2>Plugins loaded (${facts.plugins.length})</h2>
<ul>
${plugins}
</ul>
</body>
</html>
`;
}
