/** Row types for accounts. They never leave the repositories: handlers see domain shapes. */
import type { Generated } from 'kysely';

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
  /** 1: the shopper wants order updates pushed to their devices (api/push); 0: not. */
  order_updates: Generated<number>;
}

export interface SessionsTable {
  /**
   * The SHA-256 (hex) of the token's `sid`, never the `sid` itself (`sessionRowId` in
   * api/plugins/auth.ts): a copy of this table names no session a token could be signed for.
   * Push subscriptions name their session by this id too.
   */
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export type CodePurpose = 'register' | 'login' | 'reset';

/** One live one-time code per user and purpose; only its HMAC is stored. */
export interface OneTimeCodesTable {
  id: Generated<number>;
  user_id: number;
  purpose: CodePurpose;
  code_hash: string;
  tries: number;
  created_at: number;
  expires_at: number;
}

/**
 * One registration attempt of an unverified account: its code (HMAC only) and
 * the details it was made with, applied to the account when its code verifies.
 */
export interface RegistrationCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  password_hash: string;
  name: string;
  phone: string;
  tries: number;
  created_at: number;
  expires_at: number;
}

export interface AccountTables {
  users: UsersTable;
  sessions: SessionsTable;
  one_time_codes: OneTimeCodesTable;
  registration_codes: RegistrationCodesTable;
}
