import type { AccountTables } from '../accounts/account.tables.js';
import type { BackupTables } from '../backup/backup.tables.js';
import type { CatalogueTables } from '../catalogue/catalogue.tables.js';
import type { GiftTables } from '../gifts/gift.tables.js';
import type { NewsletterTables } from '../newsletter/newsletter.tables.js';
import type { OrderTables } from '../orders/order.tables.js';
import type { PushTables } from '../push/push.tables.js';
import type { PlatformTables } from './platform.tables.js';

/**
 * The whole database as Kysely sees it, composed from each feature's own
 * tables file so a feature adds its tables without editing the others'.
 */
export interface Database
  extends AccountTables,
    BackupTables,
    CatalogueTables,
    GiftTables,
    NewsletterTables,
    OrderTables,
    PlatformTables,
    PushTables {}
