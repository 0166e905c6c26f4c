/**
 * One-time codes: 6 random digits, stored only as an HMAC bound to the user
 * and the purpose (so a login code never resets a password), valid for 10
 * minutes, single use, and dead after MAX_TRIES checks. Issuing a new code
 * for the same user and purpose overwrites the old row, so the old code dies.
 *
 * Every check first spends a try in one UPDATE (`tries < MAX_TRIES`), and only
 * then compares: parallel guesses cannot get more than MAX_TRIES looks at a
 * code, and the 6th guess is refused even when it is right.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { CodePurpose } from './account.tables.js';
import { verifyDummy, verifyPassword } from './password.js';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_TRIES = 5;

export function codeHash(secret: string, userId: number, purpose: CodePurpose, code: string): string {
  return createHmac('sha256', secret).update(`${purpose}\n${userId}\n${code}`).digest('base64url');
}

export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** Makes a new code for the user and purpose, replacing any live one, and returns it in clear (for the mail only). */
export async function issueCode(
  db: Kysely<Database>,
  secret: string,
  userId: number,
  purpose: CodePurpose,
  now = Date.now(),
): Promise<string> {
  const code = newCode();
  const row = {
    code_hash: codeHash(secret, userId, purpose, code),
    tries: 0,
    created_at: now,
    expires_at: now + CODE_TTL_MS,
  };
  await db
    .insertInto('one_time_codes')
    .values({ user_id: userId, purpose, ...row })
    .onConflict((oc) => oc.columns(['user_id', 'purpose']).doUpdateSet(row))
    .execute();
  return code;
}

/**
 * Whether `code` is the live code of this user and purpose. A right code is
 * consumed (deleted) in the same call; when two requests race with the right
 * code, only the one whose DELETE removed the row wins.
 */
export async function consumeCode(
  db: Kysely<Database>,
  secret: string,
  userId: number,
  purpose: CodePurpose,
  code: string,
  now = Date.now(),
): Promise<boolean> {
  const spent = await db
    .updateTable('one_time_codes')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('tries', '<', MAX_TRIES)
    .where('expires_at', '>', now)
    .returning(['id', 'code_hash'])
    .executeTakeFirst();
  if (!spent) return false;
  const expected = Buffer.from(spent.code_hash);
  const given = Buffer.from(codeHash(secret, userId, purpose, code));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  const deleted = await db
    .deleteFrom('one_time_codes')
    .where('id', '=', spent.id)
    .where('code_hash', '=', spent.code_hash)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

/** Drops codes that can no longer be used; called now and then, not on every request. */
export async function pruneCodes(db: Kysely<Database>, now = Date.now()): Promise<void> {
  await db.deleteFrom('one_time_codes').where('expires_at', '<=', now).execute();
  await db.deleteFrom('registration_codes').where('expires_at', '<=', now).execute();
}

/**
 * Registration codes: one per registration attempt of an unverified account,
 * each bound to the password, name and phone of the attempt that asked for it
 * (`registration_codes`). Verifying with a code applies that attempt's details,
 * so whoever registers an email again cannot choose the password for a
 * registration code someone else is about to type, and an earlier attempt's
 * code keeps working. At most MAX_LIVE_REGISTRATIONS attempts live at once.
 */
export const MAX_LIVE_REGISTRATIONS = 3;

export interface RegistrationDetails {
  passwordHash: string;
  name: string;
  phone: string;
}

export async function issueRegistrationCode(
  db: Kysely<Database>,
  secret: string,
  userId: number,
  details: RegistrationDetails,
  now = Date.now(),
): Promise<string> {
  const code = newCode();
  await db
    .deleteFrom('registration_codes')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('tries', '>=', MAX_TRIES)]))
    .execute();
  const { id } = await db
    .insertInto('registration_codes')
    .values({
      user_id: userId,
      code_hash: codeHash(secret, userId, 'register', code),
      password_hash: details.passwordHash,
      name: details.name,
      phone: details.phone,
      tries: 0,
      created_at: now,
      expires_at: now + CODE_TTL_MS,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The oldest attempts beyond the cap die, so a flood of registrations cannot widen the guessing.
  const live = await db
    .selectFrom('registration_codes')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  const keep = live.slice(0, MAX_LIVE_REGISTRATIONS).map((r) => r.id);
  if (live.length > MAX_LIVE_REGISTRATIONS) {
    await db
      .deleteFrom('registration_codes')
      .where('user_id', '=', userId)
      .where('id', 'not in', keep)
      .execute();
  }
  if (!keep.includes(id)) throw new Error('registration code vanished while it was issued');
  return code;
}

/**
 * The details of the registration whose code this is, consumed with every
 * other attempt of the account, or null. Like `consumeCode`, each check first
 * spends a try on every live attempt, so no code gets more than MAX_TRIES looks.
 */
export async function consumeRegistrationCode(
  db: Kysely<Database>,
  secret: string,
  userId: number,
  code: string,
  now = Date.now(),
): Promise<RegistrationDetails | null> {
  const spent = await db
    .updateTable('registration_codes')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('user_id', '=', userId)
    .where('tries', '<', MAX_TRIES)
    .where('expires_at', '>', now)
    .returning(['id', 'code_hash', 'password_hash', 'name', 'phone'])
    .execute();
  const given = Buffer.from(codeHash(secret, userId, 'register', code));
  let match: (typeof spent)[number] | undefined;
  // Every live attempt is compared, so the time taken does not say which one matched.
  for (const row of spent) {
    const expected = Buffer.from(row.code_hash);
    if (expected.length === given.length && timingSafeEqual(expected, given) && !match) match = row;
  }
  if (!match) return null;
  const deleted = await db
    .deleteFrom('registration_codes')
    .where('id', '=', match.id)
    .where('code_hash', '=', match.code_hash)
    .executeTakeFirst();
  if (deleted.numDeletedRows === 0n) return null;
  await dropRegistrations(db, userId);
  return { passwordHash: match.password_hash, name: match.name, phone: match.phone };
}

/** Ends every pending registration of an account (it was verified, by its code or a reset). */
export async function dropRegistrations(db: Kysely<Database>, userId: number): Promise<void> {
  await db.deleteFrom('registration_codes').where('user_id', '=', userId).execute();
}

/**
 * Whether `password` is the one of a live registration attempt of this account. Every attempt is
 * checked (at most MAX_LIVE_REGISTRATIONS scrypt runs) and a missing one costs a dummy check, so
 * the time does not tell whether an attempt exists.
 */
export async function registrationPasswordMatches(
  db: Kysely<Database>,
  userId: number,
  password: string,
  now = Date.now(),
): Promise<boolean> {
  const attempts = await db
    .selectFrom('registration_codes')
    .select('password_hash')
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .execute();
  if (attempts.length === 0) return verifyDummy(password);
  const results = await Promise.all(attempts.map((a) => verifyPassword(password, a.password_hash)));
  return results.includes(true);
}
