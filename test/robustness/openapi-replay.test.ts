/**
 * The OpenAPI document tells the truth: the fuzzer's requests (schema-valid and hostile) are
 * replayed against the real host, and every answer's status must be listed for its operation in
 * `/openapi.json`, with the content type the document declares for that status.
 */
import test from 'ava';
import { request } from '../helpers/http.js';
import { FUZZ_KEYS, FUZZ_PROCESSES, startFuzzHost } from './fuzz-host.js';
import { runFuzz } from './fuzz-run.js';
import type { Operation } from './openapi-model.js';
import type { RawOutcome } from './raw-client.js';

type Responses = Record<string, { content?: Record<string, unknown> } | undefined>;
type Document = { paths: Record<string, Record<string, { responses?: Responses } | undefined>> };

/** Why an answer disagrees with the document, or null when it is listed. */
/**
 * Whether the request left a path parameter empty, which names another resource: `DELETE
 * /ai/profiles/` is the list of profiles (405 for DELETE), not the profile operation's answer.
 */
function anotherResource(operation: Operation, label: string): boolean {
  const path = label.slice(label.indexOf(' ') + 1).split('?')[0] ?? '';
  return (path.endsWith('/') && !operation.path.endsWith('/')) || path.includes('//');
}

function disagreement(
  document: Document,
  operation: Operation,
  outcome: RawOutcome,
): string | null {
  if (outcome.kind !== 'answer') return null;
  const responses = document.paths[operation.path]?.[operation.method.toLowerCase()]?.responses;
  const listed = responses?.[String(outcome.status)] ?? responses?.default;
  if (listed === undefined) return `status ${outcome.status} not listed`;
  // Listed media types may carry parameters (`text/plain; version=0.0.4`); answers are compared
  // by type alone.
  const types = Object.keys(listed.content ?? {}).map((type) => type.split(';')[0]?.trim() ?? '');
  // A listed answer without content (an upstream's answer through a proxy) may be anything.
  if (types.length === 0 || outcome.contentType === '') return null;
  return types.includes(outcome.contentType)
    ? null
    : `status ${outcome.status}: content type ${outcome.contentType}, document says ${types.join(', ')}`;
}

test('every answer of a fuzz run is listed in the OpenAPI document for its operation', async (t) => {
  const seed = 20_261_126;
  const { host, accessToken } = await startFuzzHost(`openapi-replay-${seed}`);
  t.teardown(() => host.stop());
  const document = (await request(host.url, '/openapi.json', { token: accessToken }))
    .body as Document;
  const mismatches = new Map<string, string>();
  let checked = 0;
  await runFuzz(
    host.url,
    accessToken,
    {
      processNames: [...FUZZ_PROCESSES, 'stackd API', 'Nobody'],
      configKeys: [...FUZZ_KEYS, 'nope'],
      usernames: ['fuzzer', 'fuzz.two', 'x', 'admin2'],
      tokenLike: ['', 'garbage', 'a.b.c', `${accessToken.slice(0, -4)}AAAA`],
    },
    {
      seed,
      requests: 600,
      concurrency: 4,
      socketSessions: 0,
      timeoutMs: 15_000,
      onAnswer: (operation, label, outcome) => {
        if (anotherResource(operation, label)) return;
        checked += outcome.kind === 'answer' ? 1 : 0;
        const why = disagreement(document, operation, outcome);
        if (why !== null) mismatches.set(`${operation.method} ${operation.path}: ${why}`, label);
      },
    },
  );
  t.true(checked >= 500, `${checked} answers checked`);
  t.deepEqual(
    [...mismatches.entries()].map(([what, example]) => `${what} (e.g. ${example})`),
    [],
  );
});

test('pages and assets are declared with the content types they are served with', async (t) => {
  const { host, accessToken } = await startFuzzHost('openapi-replay-types');
  t.teardown(() => host.stop());
  const document = (await request(host.url, '/openapi.json', { token: accessToken }))
    .body as Document;
  const typesOf = (path: string) =>
    Object.keys(document.paths[path]?.get?.responses?.['200']?.content ?? {}).sort();
  t.deepEqual(typesOf('/docs'), ['text/html']);
  t.deepEqual(typesOf('/redoc'), ['text/html']);
  t.deepEqual(typesOf('/docs/assets/{file}'), ['image/png', 'text/css', 'text/javascript']);
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      // WebSocket upgrades answer 101 or close; the request pipeline is not theirs.
      if ((operation as Record<string, unknown> | undefined)?.['x-websocket'] === true) continue;
      const statuses = Object.keys(operation?.responses ?? {});
      t.true(statuses.includes('400') && statuses.includes('431'), `${method} ${path}`);
    }
  }
});
