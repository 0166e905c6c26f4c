/** Row types of the mailing list (migration 20261127_1100_newsletter). */
import type { Generated } from 'kysely';

export type SubscriberStatus = 'pending' | 'confirmed';

export interface NewsletterSubscribersTable {
  id: Generated<number>;
  /** Lower-case, as EmailSchema gives it. */
  email: string;
  status: SubscriberStatus;
  /** SHA-256 (hex) of the newest confirmation link's token; the token itself is only in the mail. */
  confirm_hash: string;
  /** Until when that link confirms a pending address (ms). */
  confirm_expires_at: number;
  created_at: number;
  confirmed_at: number | null;
}

export interface NewsletterTables {
  newsletter_subscribers: NewsletterSubscribersTable;
}
