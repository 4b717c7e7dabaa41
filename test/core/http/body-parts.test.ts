import test from 'ava';
import { joinParts } from '../../../core/http/body-parts.js';

test('text and byte parts join in order, text as UTF-8', (t) => {
  const joined = joinParts(['{"a":"é', Uint8Array.of(0x78, 0x79), '😀"}', '']);
  t.is(Buffer.from(joined).toString('utf8'), '{"a":"éxy😀"}');
  t.is(joined.byteLength, Buffer.byteLength('{"a":"éxy😀"}'));
});

test('a shorter body after a longer one carries none of the longer one', (t) => {
  const long = 'x'.repeat(200_000);
  t.is(joinParts([long, 'tail']).byteLength, 200_004);
  const short = joinParts(['short']);
  t.is(Buffer.from(short).toString(), 'short');
});

test('growing, and a body over the kept size, still join whole', (t) => {
  for (const size of [10, 70_000, 140_001, 300_000, 3_000_000]) {
    const parts = [`${'a'.repeat(size)}`, Buffer.from('-'), 'b'.repeat(size)];
    const joined = Buffer.from(joinParts(parts));
    t.is(joined.byteLength, 2 * size + 1);
    t.is(joined.indexOf('-'), size);
    t.is(joined.lastIndexOf('a'), size - 1);
    t.is(joined[2 * size], 0x62);
  }
});
