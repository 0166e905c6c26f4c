/**
 * The product pages' offer (`offer` in domain/settings.ts): the owner picks one of the shop's live
 * coupons, and the setting keeps it as it is then, so phones word the banner from the coupon
 * itself with no request. Only a live coupon (active, not past its end) can be picked; the
 * setting moves the catalogue's version like any setting, so phones get it in their next delta.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Coupon } from '../../domain/coupons.js';
import type { Offer } from '../../domain/shop-offer.js';
import { bumpVersion } from '../catalogue/catalogue.repository.js';
import type { Database } from '../db/schema.js';
import { writeSettings } from '../settings/settings.repository.js';
import { readShopSettings } from '../settings/settings.service.js';
import { liveCoupons } from './coupon.repository.js';

/** The coupon as the banner words it: `amount` is a flat coupon's rupees or a percentage's cap. */
export function offerOf(c: Coupon): Offer {
  return {
    code: c.code,
    amount: c.off.kind === 'flat' ? c.off.amount : c.off.cap,
    firstOrderOnly: c.firstOrderOnly,
    endsAt: c.endsAt,
    off: c.off,
    minItems: c.minItems,
    startsAt: c.startsAt,
  };
}

export interface OfferAnswer {
  offer: Offer | null;
  coupons: Offer[];
}

export async function readOffer(db: Kysely<Database>, now = Date.now()): Promise<OfferAnswer> {
  const [settings, coupons] = await Promise.all([readShopSettings(db), liveCoupons(db, now)]);
  return { offer: settings.offer, coupons: coupons.map(offerOf) };
}

/** Advertises the live coupon `code`, or none; null when `code` names no live coupon. */
export async function chooseOffer(
  db: Kysely<Database>,
  code: string | null,
  now = Date.now(),
): Promise<OfferAnswer | null> {
  return db.transaction().execute(async (trx) => {
    const coupons = (await liveCoupons(trx, now)).map(offerOf);
    const offer = code === null ? null : (coupons.find((c) => c.code === code) ?? undefined);
    if (offer === undefined) return null;
    await writeSettings(trx, { offer }, await bumpVersion(trx), now);
    return { offer, coupons };
  });
}

/**
 * A coupon that stops being live takes the banner with it: called by whatever ends or removes a
 * coupon (the demo's removal, in its own transaction and catalogue version). A banner whose coupon
 * passes its end date goes by itself on every device (`liveOffer`). True when it cleared the offer.
 */
export async function withdrawOfferIn(
  trx: Transaction<Database>,
  code: string,
  version: number,
  now: number,
): Promise<boolean> {
  const { offer } = await readShopSettings(trx);
  if (offer?.code !== code) return false;
  await writeSettings(trx, { offer: null }, version, now);
  return true;
}

/** The same in a transaction and catalogue version of its own, for a coupon ended elsewhere. */
export async function withdrawOfferFor(db: Kysely<Database>, code: string): Promise<void> {
  if ((await readShopSettings(db)).offer?.code !== code) return;
  await db.transaction().execute(async (trx) => {
    await withdrawOfferIn(trx, code, await bumpVersion(trx), Date.now());
  });
}
