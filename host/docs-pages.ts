/**
 * `/docs` (Swagger UI, interactive) and `/redoc` (the same renderer with every "try it out"
 * switched off: a read-only view), both from the installed swagger-ui-dist package — no CDN.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const assetDir = dirname(require.resolve('swagger-ui-dist/package.json'));

/** The asset files the pages load. */
export const DOC_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const cache = new Map<string, Buffer>();

/** The bytes of one asset, read once. */
export async function readDocAsset(name: string): Promise<Buffer | undefined> {
  if (!(name in DOC_ASSETS)) return undefined;
  let content = cache.get(name);
  if (content === undefined) {
    content = await readFile(join(assetDir, name));
    cache.set(name, content);
  }
  return content;
}

/**
 * The page HTML. `prefix` is where the page was reached (`''` or `/api`), so the assets and the
 * schema load through the same prefix.
 */
export function docsPage(options: { prefix: string; readOnly: boolean; title: string }): string {
  const assets = `${options.prefix}/docs/assets`;
  const config = {
    url: `${options.prefix}/openapi.json`,
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: options.readOnly ? 'list' : 'list',
    ...(options.readOnly
      ? { supportedSubmitMethods: [] as string[], tryItOutEnabled: false }
      : { persistAuthorization: true }),
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}</title>
<link rel="icon" type="image/png" href="${assets}/favicon-32x32.png">
<link rel="stylesheet" href="${assets}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${assets}/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(config)}, {
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout'
}));
</script>
</body>
</html>
`;
}
