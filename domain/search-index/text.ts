/** The character classes of the search index, read a UTF-16 unit at a time. */

/** Which of the first 128 UTF-16 units are letters or digits. */
const ASCII_WORD_CHARS = Uint8Array.from({ length: 128 }, (_, c) =>
  /[\p{L}\p{N}]/u.test(String.fromCharCode(c)) ? 1 : 0,
);

/**
 * scoreFields()'s "letter or digit" test on one UTF-16 unit, without a regex for plain ASCII. A
 * table read, not a chain of comparisons: the engine compiles a comparison no run has reached as
 * a bail-out, and one it first reached on a shopper's keystroke (a title hit after a space, in a
 * query with a space) threw the search's compiled loop away in the middle of it.
 */
export function isWordChar(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return c < 128 ? ASCII_WORD_CHARS[c] === 1 : /[\p{L}\p{N}]/u.test(text[at] ?? '');
}

/** JavaScript's white space (what `\s` matches), so that words split exactly where a query's `\s` test does. */
export function isSpace(c: number): boolean {
  return c < 128
    ? c === 32 || (c >= 9 && c <= 13)
    : c === 0xa0 ||
        c === 0x1680 ||
        (c >= 0x2000 && c <= 0x200a) ||
        c === 0x2028 ||
        c === 0x2029 ||
        c === 0x202f ||
        c === 0x205f ||
        c === 0x3000 ||
        c === 0xfeff;
}
