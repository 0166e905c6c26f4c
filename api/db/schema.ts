/**
 * The whole database as Kysely sees it, composed from each feature's own
 * tables file so a feature adds its tables without editing the others'.
 */
import type { AccountTables } from '../accounts/account.tables.js';
import type { CatalogueTables } from '../catalogue/catalogue.tables.js';
import type { CouponTables } from '../coupons/coupon.tables.js';
import type { DeliveryAreaTables } from '../delivery-areas/delivery-area.tables.js';
import type { GiftTables } from '../gifts/gift.tables.js';
import type { MediaTables } from '../images/media.tables.js';
import type { NewsletterTables } from '../newsletter/newsletter.tables.js';
import type { OrderTables } from '../orders/order.tables.js';
import type { PaymentTables } from '../payments/payment.tables.js';
import type { PostTables } from '../posts/post.tables.js';
import type { PushTables } from '../push/push.tables.js';
import type { RateLimitTables } from '../ratelimit/ratelimit.tables.js';
import type { SettingsTables } from '../settings/settings.tables.js';
import type { SlotTables } from '../slots/slot.tables.js';
import type { PlatformTables } from './platform.tables.js';

export interface Database
  extends AccountTables,
    CatalogueTables,
    CouponTables,
    DeliveryAreaTables,
    GiftTables,
    MediaTables,
    NewsletterTables,
    OrderTables,
    PaymentTables,
    PlatformTables,
    PostTables,
    PushTables,
    RateLimitTables,
    SettingsTables,
    SlotTables {}
