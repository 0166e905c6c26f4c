/**
 * The first admin. No default password ships: an admin exists only when the
 * operator names one, through ADMIN_EMAIL/ADMIN_PASSWORD at start or
 * `npm run admin:create -- email password`.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { EmailSchema, PasswordSchema } from '../../domain/accounts.js';
import { ADMIN_ROLE } from '../../domain/roles.js';
import { parseWith } from '../../domain/validation.js';
import type { Database } from '../db/schema.js';
import { dropRegistrations } from './codes.js';
import { hashPassword } from './password.js';
import { findUserByEmail, insertUser, updateUser } from './user.repository.js';

export type AdminOutcome = 'created' | 'promoted' | 'unchanged';

export class AdminInputError extends Error {}

function checked(email: string, password: string): { email: string; password: string } {
  const e = parseWith(EmailSchema(), email);
  if (!e.ok) throw new AdminInputError(`Admin email: ${e.message}`);
  const p = parseWith(PasswordSchema, password);
  if (!p.ok) throw new AdminInputError(`Admin password: ${p.message}`);
  return { email: e.value, password: p.value };
}

/**
 * Creates the admin, or makes an existing account an admin (verified).
 * `setPassword` decides whether a verified account's password is replaced:
 * the command does (the operator typed it), the start-up task does not (so an
 * admin who changed the password is not reset on every restart). An account
 * that never proved its mailbox always gets the operator's password: whoever
 * registered it (anyone can register any address) chose its pending
 * passwords, and must not become the admin by the promotion.
 */
export async function createOrPromoteAdmin(
  db: Kysely<Database>,
  rawEmail: string,
  rawPassword: string,
  options: { setPassword: boolean },
): Promise<AdminOutcome> {
  const { email, password } = checked(rawEmail, rawPassword);
  const existing = await findUserByEmail(db, email);
  if (!existing) {
    await insertUser(db, {
      name: 'Admin',
      email,
      phone: '',
      passwordHash: await hashPassword(password),
      role: ADMIN_ROLE,
      verified: true,
    });
    return 'created';
  }
  const fields: Parameters<typeof updateUser>[2] = {};
  if (existing.role !== ADMIN_ROLE) fields.role = ADMIN_ROLE;
  if (!existing.verified) fields.verified = 1;
  if (options.setPassword || !existing.verified) fields.password_hash = await hashPassword(password);
  if (Object.keys(fields).length === 0) return 'unchanged';
  await updateUser(db, existing.id, fields);
  // A pending registration's code would otherwise still set its registrant's password.
  if (!existing.verified) await dropRegistrations(db, existing.id);
  // A replaced password ends the sessions opened with the old one.
  if (fields.password_hash) {
    await db
      .updateTable('sessions')
      .set({ revoked_at: Date.now() })
      .where('user_id', '=', existing.id)
      .where('revoked_at', 'is', null)
      .execute();
  }
  return existing.role === ADMIN_ROLE ? 'unchanged' : 'promoted';
}

/** The start-up task: the admin named by ADMIN_EMAIL/ADMIN_PASSWORD exists and is an admin. */
export const adminFromEnvironment = {
  name: 'first admin from ADMIN_EMAIL',
  async run(app: FastifyInstance): Promise<void> {
    const { adminEmail, adminPassword } = app.config;
    if (!adminEmail || !adminPassword) return;
    const outcome = await createOrPromoteAdmin(app.db, adminEmail, adminPassword, { setPassword: false });
    app.log.info({ email: adminEmail.trim().toLowerCase(), outcome }, 'admin account from ADMIN_EMAIL');
  },
};
