/** The scan workers' wire format: what goes in comes out, byte for byte. */
import test from 'ava';
import {
  isAsciiLatin1,
  joinLatin1,
  splitLatin1,
  utf8OfLatin1,
} from '../../../../plugins/symlinks/scan/scan-codec.js';

function items(count: number): Buffer[] {
  return Array.from({ length: count }, (_, index) =>
    Buffer.concat([
      Buffer.from(`/média/${index}/`),
      Buffer.from([0xff, 0x01, 0x80, 0x0a]),
      Buffer.from(Array.from({ length: 255 }, (_, byte) => byte + 1).slice(index % 200)),
      Buffer.alloc(index % 97, 0x61),
    ]),
  );
}

test('items joined as latin1 text split to the same bytes, any byte but NUL kept', (t) => {
  // Every byte a path or link target can hold (1–255), in many items of varied lengths.
  const expected = items(5000);
  const texts = splitLatin1(joinLatin1(expected.map((bytes) => bytes.toString('latin1'))));
  t.is(texts.length, expected.length);
  t.true(
    texts.every((text, index) => Buffer.from(text, 'latin1').equals(expected[index] as Buffer)),
    'every item keeps its exact bytes',
  );
  t.deepEqual(splitLatin1(joinLatin1([])), [], 'an empty list stays empty');
  t.deepEqual(splitLatin1(joinLatin1(['/a'])), ['/a']);
});

test('latin1 byte strings read as UTF-8 text: ASCII as is, the rest decoded', (t) => {
  t.true(isAsciiLatin1('/media/movies/a.mkv'));
  t.is(utf8OfLatin1('/media/movies/a.mkv'), '/media/movies/a.mkv');
  const accented = Buffer.from('/médias/Amélie.mkv').toString('latin1');
  t.false(isAsciiLatin1(accented));
  t.is(utf8OfLatin1(accented), '/médias/Amélie.mkv');
  t.is(utf8OfLatin1(Buffer.from([0x2f, 0xff]).toString('latin1')), '/\ufffd');
});
