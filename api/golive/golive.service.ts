/**
 * "Make it yours": the checklist's facts gathered from the settings, the delivery areas and the
 * payment set-up (the rules are `domain/go-live.ts`'s), and the removal of the demo catalogue.
 *
 * The removal is one catalogue write (api/catalogue/README.md): it starts with `bumpVersion`, whose
 * row lock on PostgreSQL makes a second admin's removal wait for the first; the rows to remove are
 * read after it, so the second finds none and removes nothing. SQLite runs one transaction at a
 * time. Products and categories are soft deleted under the new version, so phones drop them with
 * their next delta; orders keep their lines (each line copies its product's name, size, price and
 * picture address when placed).
 */
import type { Kysely } from 'kysely';
import {
  DEMO_COUPON,
  type DemoRemoved,
  demoLeftAny,
  type GoLive,
  type GoLiveFacts,
  goLiveChecklist,
  isReady,
} from '../../domain/go-live.js';
import type { PaymentProviderName } from '../../domain/payments.contract.js';
import { bumpVersion, softDeleteProducts } from '../catalogue/catalogue.repository.js';
import { deleteCategory } from '../catalogue/category.repository.js';
import { republishTerms } from '../coupons/coupon.service.js';
import { withdrawOfferIn } from '../coupons/offer.service.js';
import type { Database } from '../db/schema.js';
import { listAreas } from '../delivery-areas/delivery-area.repository.js';
import { removeImages } from '../images/images.js';
import type { MediaStore } from '../images/media-store.js';
import { listSettingRows } from '../settings/settings.repository.js';
import { readShopSettings } from '../settings/settings.service.js';
import {
  deleteImageRows,
  demoLeft,
  demoRows,
  pictureAddressesInOrders,
  withdrawDemoCoupon,
} from './golive.repository.js';

export async function goLiveFacts(
  db: Kysely<Database>,
  provider: PaymentProviderName | null,
): Promise<GoLiveFacts> {
  const [rows, settings, areas] = await Promise.all([
    listSettingRows(db),
    readShopSettings(db),
    listAreas(db),
  ]);
  return {
    profileSaved: rows.some((r) => r.key === 'profile'),
    profile: settings.profile,
    areas,
    provider,
    codOnlyConfirmed: settings.codOnlyConfirmed,
    policiesReviewed: settings.policiesReviewed,
  };
}

export async function goLive(db: Kysely<Database>, provider: PaymentProviderName | null): Promise<GoLive> {
  const [facts, demo] = await Promise.all([goLiveFacts(db, provider), demoLeft(db)]);
  const items = goLiveChecklist(facts);
  return { items, demo, ready: isReady(items, demo) };
}

/**
 * Removes what is left of the demo (see the file's comment). Picture files go after the commit,
 * except those an order's line shows; a failed transaction removes no file.
 */
export async function removeDemo(db: Kysely<Database>, media: MediaStore): Promise<DemoRemoved> {
  // Nothing left: answered without a write, so the catalogue's version (and every phone's next
  // sync) stays as it is. A removal racing another still finds nothing inside its transaction.
  const [left, settings] = await Promise.all([demoLeft(db), readShopSettings(db)]);
  if (!demoLeftAny(left) && settings.offer?.code !== DEMO_COUPON) {
    return { products: 0, categories: 0, images: 0, coupon: 'none', offerCleared: false };
  }
  const done = await db.transaction().execute(async (trx) => {
    const version = await bumpVersion(trx);
    const now = Date.now();
    const rows = await demoRows(trx);
    if (rows.productIds.length) {
      await softDeleteProducts(trx, rows.productIds, version, now);
      await deleteImageRows(trx, rows.productIds);
    }
    // Only categories no product of the owner's is in: detaching touches no live product.
    for (const id of rows.categoryIds) await deleteCategory(trx, id, version, now);
    const coupon = await withdrawDemoCoupon(trx);
    if (coupon !== 'none') await republishTerms(trx, version, now);
    const offerCleared = await withdrawOfferIn(trx, DEMO_COUPON, version, now);
    const shown = new Set(await pictureAddressesInOrders(trx, rows.productIds));
    return { rows, coupon, offerCleared, shown };
  });
  const { rows, coupon, offerCleared, shown } = done;
  const unused = rows.images.filter((img) => ![...shown].some((src) => src.includes(`/${img.file_stem}-`)));
  await removeImages(
    media,
    unused.map((img) => ({
      stem: img.file_stem,
      widths: img.widths.split(',').map(Number),
      width: 0,
      height: 0,
    })),
  );
  return {
    products: rows.productIds.length,
    categories: rows.categoryIds.length,
    images: rows.images.length,
    coupon,
    offerCleared,
  };
}
