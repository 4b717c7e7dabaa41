/**
 * The scan workers' wire format: a list of byte strings joined into one string with NUL between
 * them, so a batch of thousands of paths crosses threads as one string (a single copy) instead of
 * thousands of cloned objects, and is split apart again by one native call. NUL is the one byte
 * no path and no link target can hold, and neither is ever empty. Both sides hold a byte string as
 * latin1 text (one character per byte, lossless for any bytes): a string costs far less to make
 * than a Buffer.
 */

const SEPARATOR = '\0';

/** One string holding every item (byte strings held as latin1 text, none empty, none with NUL). */
export function joinLatin1(items: readonly string[]): string {
  return items.join(SEPARATOR);
}

/** The items of a joined string, as latin1 text (each a slice of it, not a copy). */
export function splitLatin1(joined: string): string[] {
  return joined === '' ? [] : joined.split(SEPARATOR);
}

const NOT_ASCII = /[\u0080-\u00ff]/; // latin1 text holds nothing above U+00FF

/** Whether a byte string held as latin1 text is plain ASCII (then it is its own UTF-8 text). */
export function isAsciiLatin1(bytes: string): boolean {
  return !NOT_ASCII.test(bytes);
}

/** The UTF-8 reading of a byte string held as latin1 text (invalid UTF-8 shown as U+FFFD). */
export function utf8OfLatin1(bytes: string): string {
  return isAsciiLatin1(bytes) ? bytes : Buffer.from(bytes, 'latin1').toString('utf8');
}
