/**
 * The occasions a product is for, one list the product form ticks, the search finds and the gift
 * card takes its shared names from (`CARD_OCCASIONS` in gifts.ts), so an occasion is never spelled
 * two ways. Products keep the names themselves: a name is what shoppers read and type.
 */
import * as v from 'valibot';

export const OCCASIONS = [
  'Birthday',
  'Anniversary',
  'Wedding',
  "Valentine's Day",
  "Mother's Day",
  "Father's Day",
  'Rakhi',
  'Diwali',
  'Congratulations',
  'Get well soon',
  'Sorry',
  'Thank you',
] as const;
export type Occasion = (typeof OCCASIONS)[number];

export const occasionMessages = {
  unknown: `Occasions must be from: ${OCCASIONS.join(', ')}.`,
  list: 'Occasions must be a list.',
} as const;

const OccasionSchema = v.picklist(OCCASIONS, occasionMessages.unknown);

/** Each occasion once, in the list's order, whatever order they were ticked or sent in. */
export function inListOrder(occasions: readonly Occasion[] | Occasion[]): Occasion[] {
  return OCCASIONS.filter((o) => occasions.includes(o));
}

/** The occasions a product endpoint takes: known names only; repeats are one. */
export const OccasionListSchema = v.pipe(
  v.array(OccasionSchema, occasionMessages.list),
  v.transform((list: Occasion[]) => inListOrder(list)),
);

/** Occasions as stored in a product row: the names joined by commas (none holds one). */
export function joinOccasions(occasions: readonly string[]): string {
  return knownOccasions(occasions).join(',');
}

/** A stored row's occasions; a name a later list dropped is left out rather than shown. */
export function splitOccasions(stored: string | null | undefined): Occasion[] {
  return knownOccasions((stored ?? '').split(','));
}

/** The names of the list among `names` (a product's, as a phone holds it), in the list's order. */
export function knownOccasions(names: readonly string[] | undefined): Occasion[] {
  return OCCASIONS.filter((o) => names?.includes(o));
}
