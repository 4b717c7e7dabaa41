import test from 'ava';
import { MAX_JSON_DEPTH, jsonNestsDeeperThan, parseBoundedJson } from '../../sdk/bounded-json.js';

test('depth counts arrays and objects, not brackets inside strings', (t) => {
  t.false(jsonNestsDeeperThan('{"a":[1,{"b":2}]}', 3));
  t.true(jsonNestsDeeperThan('{"a":[1,{"b":[]}]}', 3));
  t.false(jsonNestsDeeperThan(`{"text":"${'['.repeat(500)}"}`, 2));
  t.false(jsonNestsDeeperThan('{"quote":"a \\" [[[[ b"}', 1), 'escaped quotes stay in the string');
  t.true(
    jsonNestsDeeperThan('{"slash":"a\\\\","b":[[]]}', 2),
    'an escaped backslash ends no string',
  );
  t.false(jsonNestsDeeperThan('{"slash":"a\\\\","b":[[]]}', 3));
  t.false(jsonNestsDeeperThan('"ends with a backslash\\', 0));
  const document = JSON.stringify({ blocks: [{ a: '}]"{[' }, { b: [[['x\\"']]] }] });
  t.false(jsonNestsDeeperThan(document, 6));
  t.true(jsonNestsDeeperThan(document, 5), 'the same text scanned twice gives its own answer');
});

test('a deep document is refused before JSON.parse; a shallow one parses', (t) => {
  const deep = parseBoundedJson(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`);
  t.deepEqual(deep.ok ? null : deep.reason, 'too-deep');
  const edge = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
  t.true(parseBoundedJson(edge).ok);
  t.false(parseBoundedJson(`[${edge}]`).ok);
  const broken = parseBoundedJson('{"a":');
  t.deepEqual(broken.ok ? null : broken.reason, 'malformed');
});
