/** SQL for users. Row types stay here; callers get rows or the profile shape. */
import type { Kysely, Selectable } from 'kysely';
import type { UserProfile } from '../../domain/accounts.js';
import type { Database } from '../db/schema.js';
import type { UsersTable } from './account.tables.js';

export type UserRow = Selectable<UsersTable>;

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUserById(db: Kysely<Database>, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(
  db: Kysely<Database>,
  user: {
    name: string;
    email: string;
    phone: string;
    passwordHash: string;
    role?: string;
    verified?: boolean;
  },
  now = Date.now(),
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      name: user.name,
      email: user.email,
      phone: user.phone,
      password_hash: user.passwordHash,
      address: '',
      role: user.role ?? '0',
      verified: user.verified ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    // Two registrations of one new email at once: the second finds the row instead of failing.
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (row) return row.id;
  const existing = await findUserByEmail(db, user.email);
  if (!existing) throw new Error('user vanished during registration');
  return existing.id;
}

export async function updateUser(
  db: Kysely<Database>,
  id: number,
  fields: Partial<Pick<UserRow, 'name' | 'phone' | 'address' | 'password_hash' | 'role' | 'verified'>>,
  now = Date.now(),
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...fields, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** The profile as the API answers it: never the password or its hash. */
export function toProfile(row: UserRow): UserProfile {
  return {
    userID: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    role: row.role,
    createdAt: new Date(Number(row.created_at)).toISOString(),
  };
}
