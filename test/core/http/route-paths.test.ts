import test from 'ava';
import { servedPaths, toOpenApiPath, patternMatcher } from '../../../core/http/route-paths.js';

test('own paths gain /api; /api paths are also served without it (docs/decisions.md §1)', (t) => {
  t.deepEqual(servedPaths('/process/processes'), [
    '/process/processes',
    '/process/processes/',
    '/api/process/processes',
    '/api/process/processes/',
  ]);
  t.deepEqual(servedPaths('/api/auth/login'), [
    '/api/auth/login',
    '/api/auth/login/',
    '/auth/login',
    '/auth/login/',
  ]);
});

test('parameters convert to OpenAPI form and match concrete paths', (t) => {
  t.is(toOpenApiPath('/ai/profiles/:profile_id/activate'), '/ai/profiles/{profile_id}/activate');
  const match = patternMatcher('/ai/profiles/:profile_id');
  t.true(match('/ai/profiles/abc'));
  t.false(match('/ai/profiles/abc/activate'));
});
