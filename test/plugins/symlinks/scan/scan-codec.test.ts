/** The scan workers' wire format: what goes in comes out, byte for byte, past the first buffer. */
import test from 'ava';
import {
  isAsciiLatin1,
  PackWriter,
  unpackLatin1,
  utf8OfLatin1,
} from '../../../../plugins/symlinks/scan/scan-codec.js';

function items(count: number): Buffer[] {
  return Array.from({ length: count }, (_, index) =>
    Buffer.concat([
      Buffer.from(`/média/${index}/`),
      Buffer.from([0xff, 0x00, 0x80]),
      Buffer.alloc(index % 97, 0x61),
    ]),
  );
}

test('items packed as latin1 text unpack to the same bytes, across buffer growth', (t) => {
  const writer = new PackWriter();
  // 5,000 items of ~70 bytes: the 64 KiB start buffer grows three times on the way.
  const expected = items(5000);
  for (const bytes of expected) writer.addLatin1(bytes.toString('latin1'));
  t.is(writer.count, expected.length);
  const texts = unpackLatin1(writer.take());
  t.is(texts.length, expected.length);
  t.true(
    texts.every((text, index) => Buffer.from(text, 'latin1').equals(expected[index] as Buffer)),
    'every item keeps its exact bytes',
  );
  t.is(writer.count, 0, 'take starts a new pack');
  t.deepEqual(unpackLatin1(writer.take()), []);
});

test('latin1 byte strings read as UTF-8 text: ASCII as is, the rest decoded', (t) => {
  t.true(isAsciiLatin1('/media/movies/a.mkv'));
  t.is(utf8OfLatin1('/media/movies/a.mkv'), '/media/movies/a.mkv');
  const accented = Buffer.from('/médias/Amélie.mkv').toString('latin1');
  t.false(isAsciiLatin1(accented));
  t.is(utf8OfLatin1(accented), '/médias/Amélie.mkv');
  t.is(utf8OfLatin1(Buffer.from([0x2f, 0xff]).toString('latin1')), '/\ufffd');
});
