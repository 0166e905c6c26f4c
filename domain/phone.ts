/**
 * Phone numbers: the account's (register, My Profile) and a gift recipient's. Each is an Indian
 * mobile number, 10 digits from 6, and is stored as those 10 digits. People type them as they
 * say them or as their contacts app shows them: in groups ("98765 01234"), with the country code
 * ("+91 98765 01234") or with the trunk 0 of a call from a landline ("09876501234"). Those are the
 * same number, so each is taken and stored as its 10 digits; anything else (a hyphen, a number
 * of another length or country) is refused with the field's own message, so a number is never
 * guessed at.
 */
import * as v from 'valibot';

/** An Indian mobile number as stored: 10 digits, the first 6, 7, 8 or 9. */
export const MOBILE_PATTERN = /^[6-9]\d{9}$/;

const SPACES = /\s+/g;
const PREFIXED = /^(?:\+91|0)([6-9]\d{9})$/;

/** The 10 digits of a mobile number as typed; anything that is not one comes back without its spaces. */
export function mobileDigits(typed: string): string {
  const compact = typed.replace(SPACES, '');
  return PREFIXED.exec(compact)?.[1] ?? compact;
}

/** A mobile number field, typed in any of the forms above; its output is the 10 digits. */
export const MobileSchema = (message: string) =>
  v.pipe(v.string(message), v.transform(mobileDigits), v.regex(MOBILE_PATTERN, message));

/** The same, for a field the API has always also taken as a JSON number (the account's phone). */
export const MobileOrNumberSchema = (message: string) =>
  v.pipe(
    v.union([v.string(), v.number()], message),
    v.transform((x) => mobileDigits(String(x))),
    v.regex(MOBILE_PATTERN, message),
  );
