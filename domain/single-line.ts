/**
 * Single-line fields (names, phone, email, subject, city, state, pincode) end up in mail headers
 * and in lines of text staff read (`From: ${name} <${email}>`): a CR or LF in one forges a line
 * ("Eve\r\nBcc: victim@…"). They refuse every control character (C0 with tab, CR and LF, DEL, C1)
 * and the Unicode line and paragraph separators. Multi-line fields (address, message,
 * description) keep their line breaks and use `isTypedText` (`catalogue.ts`) instead.
 */
import * as v from 'valibot';

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const NOT_ON_ONE_LINE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;

export function isSingleLine(s: string): boolean {
  return !NOT_ON_ONE_LINE.test(s);
}

/** The field's own message when it is not one line of plain text. */
export const singleLineMessage = (label: string) => `${label} contains characters that are not allowed.`;

/**
 * The field's own message when it is longer than its maximum: the field's name and the limit, never
 * the message of an empty field (a name pasted twice is there, it is only too long).
 */
export const tooLongMessage = (label: string, max: number) =>
  `${label} is too long (at most ${max} characters).`;

export const singleLine = (label: string) =>
  v.check((s: string) => isSingleLine(s), singleLineMessage(label));
