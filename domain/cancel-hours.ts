/**
 * The shop's `cancelHoursBeforeSlot` setting: how many hours before an order's delivery slot its
 * shopper may still cancel it (the rule is `order-cancel.ts`). Apart from the rule, so the settings
 * registry takes the schema without the rule's imports.
 */
import * as v from 'valibot';

export const DEFAULT_CANCEL_HOURS = 6;
export const MAX_CANCEL_HOURS = 72;
export const cancelHoursInvalid = `Cancellation closes a whole number of hours from 0 to ${MAX_CANCEL_HOURS} before the slot.`;

export const CancelHoursSchema = v.pipe(
  v.number(cancelHoursInvalid),
  v.integer(cancelHoursInvalid),
  v.minValue(0, cancelHoursInvalid),
  v.maxValue(MAX_CANCEL_HOURS, cancelHoursInvalid),
);
