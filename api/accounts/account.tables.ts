import type { Generated } from 'kysely';

/** Row types for accounts. They never leave the repositories: handlers see domain shapes. */
export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  phone: string;
  password_hash: string;
  address: string;
  role: string;
  verified: number;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface AccountTables {
  users: UsersTable;
  sessions: SessionsTable;
}
