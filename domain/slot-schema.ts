/**
 * The shapes of a delivery slot and a closed date, alone in a module: the
 * catalogue feed carries them to the device, and the feed's schema must not
 * pull the slot rules (`slots.ts`) into the first screen's bundle.
 */
import * as v from 'valibot';

const int = v.pipe(v.number(), v.integer());

/** A slot as the shop defines it (the admin's list, the device's copy, the public answer's base). */
export const DeliverySlotSchema = v.object({
  slotID: int,
  name: v.string(),
  /** Minutes after India midnight the window opens (0-1439). */
  start: int,
  /** Minutes after India midnight the window closes (start+1 to 1440). */
  end: int,
  /** Rupees added to the order. */
  surcharge: int,
  /** Minute of the delivery day (India) from which the slot can no longer be booked; negative: days before. */
  cutoff: int,
  /** Orders per day; null: no limit. */
  capacity: v.nullable(int),
  /** The weekdays it runs, 0 (Sunday) to 6. */
  weekdays: v.array(int),
  /** The slot an order without one gets (Standard). It cannot be retired. */
  isDefault: v.boolean(),
  /** Retired slots stay on past orders and in the admin's list, and are offered to no one. */
  retired: v.boolean(),
  position: int,
});
export type DeliverySlot = v.InferOutput<typeof DeliverySlotSchema>;

export const ClosedDateSchema = v.object({ date: v.string(), message: v.string() });
export type ClosedDate = v.InferOutput<typeof ClosedDateSchema>;
