/**
 * The catalogue as the API answers it and the device stores it. Field names
 * are the spec's (section 3), so a client written against the spec reads ours
 * unchanged; what we add (`images`, `version`, `updatedAt`, `variationID`) is
 * extra and optional for such a client.
 */
import * as v from 'valibot';
import { DeliveryAreaSchema } from './delivery-areas.js';
import { DeviceSettingsSchema } from './settings.js';
import { ClosedDateSchema, DeliverySlotSchema } from './slot-schema.js';
import { IdSchema } from './validation.js';

// The answers' schemas: the API serializes its answers through them (fields not named here never
// leave the server) and the types below are inferred from them, so there is one source.

/** A whole number, as ids, rupees and counts are. */
const int = v.pipe(v.number(), v.integer());

export const CategorySchema = v.object({
  categoryID: int,
  categoryName: v.string(),
});
export type Category = v.InferOutput<typeof CategorySchema>;

export const VariationSchema = v.object({
  variationID: int,
  variationName: v.string(),
  /** The spec's admin form calls it VariationType; the API field is variationValue. */
  variationValue: v.string(),
  /** Whole rupees; replaces the product's price in a cart line when chosen. */
  price: int,
});
export type Variation = v.InferOutput<typeof VariationSchema>;

/** One uploaded or generated image with its responsive variants (all WebP). */
export const ProductImageSchema = v.object({
  /** The largest variant, for the product page (under 60 KB). */
  src: v.string(),
  /** The card variant (under 15 KB). */
  thumb: v.string(),
  /** Every variant as a `srcset` string ("url 320w, url 640w, ..."). */
  srcset: v.string(),
  width: int,
  height: int,
});
export type ProductImage = v.InferOutput<typeof ProductImageSchema>;

export const ProductSchema = v.object({
  productID: int,
  title: v.string(),
  /** Sanitized HTML (sanitized again in the browser before it is shown). */
  description: v.pipe(v.string(), v.description('Sanitized HTML')),
  /** Whole rupees. */
  price: v.pipe(int, v.description('Whole rupees')),
  /** The spec's comma-separated list of image or video locations (first image first). */
  imagePath: v.pipe(v.string(), v.description('Comma-separated image or video locations, first image first')),
  categories: v.array(CategorySchema),
  /** The names of the product's categories, comma-separated, as the old API answered. */
  categoryName: v.pipe(v.string(), v.description("The product's category names, comma-separated")),
  labelHeading: v.string(),
  labelDescription: v.string(),
  sizeOrWeight: v.string(),
  variations: v.array(VariationSchema),
  images: v.array(ProductImageSchema),
  /** ISO time of the last change. */
  updatedAt: v.pipe(v.string(), v.isoTimestamp()),
  /** The catalogue version at the product's last change (see the delta feed). */
  version: int,
  /** Gifts: the product takes a message on the cake (at most 40 characters). */
  takesMessage: v.boolean(),
  /** A photo cake: it needs a photo and a day's notice (`domain/gifts.ts`). */
  photoCake: v.boolean(),
  /**
   * The occasions it is for, in the list's order (`domain/occasions.ts`). Every answer has it; a
   * phone's copy saved before products had occasions may not, until the product changes. Names as
   * text, not the list's picklist: the first screen parses products, and the list stays out of it.
   */
  occasions: v.optional(v.array(v.string())),
});
export type Product = v.InferOutput<typeof ProductSchema>;

/**
 * The delta feed (`GET /api/sync/catalogue?since=<cursor>`): what changed
 * since the cursor. Without `since` it is a full snapshot (`full: true`).
 * Answers come in pages: while `hasMore` is true, ask again with `cursor`.
 * Variations travel inside their product; a changed variation re-sends it.
 */
export const CatalogueDeltaSchema = v.object({
  cursor: v.string(),
  full: v.boolean(),
  hasMore: v.boolean(),
  categories: v.array(CategorySchema),
  products: v.array(ProductSchema),
  deletedProductIds: v.array(int),
  deletedCategoryIds: v.array(int),
  /**
   * The shop's live delivery slots and its closed dates from today, whole, on the
   * first page of every answer: the device replaces its copy, so the checkout works offline.
   */
  slots: v.optional(v.array(DeliverySlotSchema)),
  closedDates: v.optional(v.array(ClosedDateSchema)),
  /**
   * Delivery areas changed in the window (every live one on a full snapshot), and the pincodes
   * removed in it: a device upserts and deletes those rows only, so a one-pincode change is one row.
   */
  areas: v.optional(v.array(DeliveryAreaSchema)),
  deletedPincodes: v.optional(v.array(v.string())),
  /** The device settings changed in the window (all of them on a full snapshot), by key. */
  settings: v.optional(DeviceSettingsSchema),
});
export type CatalogueDelta = v.InferOutput<typeof CatalogueDeltaSchema>;

// ---------------------------------------------------------------------------
// Input schemas for the catalogue endpoints (server validates, admin forms reuse).
// ---------------------------------------------------------------------------

/** Longest texts we accept; a description is HTML, so it gets more room. */
export const LIMITS = {
  categoryName: 80,
  title: 200,
  description: 20_000,
  label: 500,
  sizeOrWeight: 80,
  variationText: 80,
  variations: 30,
  categoriesPerProduct: 20,
  /** Upload limits of `POST /AddProductForDash`. */
  imageBytes: 5 * 1024 * 1024,
  imagesPerProduct: 6,
  /** Sharp refuses to decode more pixels than this (a decompression bomb guard). */
  imagePixels: 40_000_000,
  searchQuery: 200,
  /** Largest page of the delta feed (a phone's sync asks for it: LATER_PAGE_SIZE, sw/catalogue-sync.ts). */
  feedPage: 5000,
  maxPrice: 10_000_000,
} as const;

/** The widths made for every image: 320 for cards (thumb), 640 for the product page (src). */
export const IMAGE_WIDTHS = { thumb: 320, src: 640 } as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * Text a person typed: no control characters but tab and line breaks, no half
 * of a UTF-16 pair. PostgreSQL cannot store a NUL at all (the insert fails),
 * and SQLite would keep what PostgreSQL refuses: both refuse it here, by name.
 */
export function isTypedText(s: string): boolean {
  if (CONTROL.test(s)) return false;
  // A loop, not a regex lookbehind: this module also runs in browsers that lack lookbehind.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}
export const typedText = (label: string) =>
  v.check((s: string) => isTypedText(s), `${label} contains characters that are not allowed.`);

const text = (max: number, label: string) =>
  v.pipe(
    v.string(`${label} must be text.`),
    v.trim(),
    v.maxLength(max, `${label} must be at most ${max} characters.`),
    typedText(label),
  );
// A missing field reads as empty, so it gets the field's own message ("Title is required.")
// instead of valibot's generic one about a missing key.
const requiredText = (max: number, label: string) =>
  v.optional(v.pipe(text(max, label), v.nonEmpty(`${label} is required.`)), '');

/** Whole rupees, 0 or more; a form may send it as a digit string ("450"). */
export const RupeesSchema = v.pipe(
  v.union([v.number(), v.string()], 'Price must be a whole number of rupees.'),
  v.transform((x) => (typeof x === 'string' ? x.trim() : x)),
  // Whole before safe: 1e21 is a whole number and is told it is too large, by the limit below.
  v.check(
    (x) => (typeof x === 'number' ? Number.isInteger(x) : /^\d{1,9}$/.test(x)),
    'Price must be a whole number of rupees.',
  ),
  v.transform((x) => Number(x)),
  v.minValue(0, 'Price must be at least 0.'),
  v.maxValue(LIMITS.maxPrice, 'Price is too large (at most ₹1,00,00,000).'),
);

/** A yes/no of the admin's product form; multipart sends it as text ("true", "on", "1"). */
export const FlagSchema = v.pipe(
  v.union([v.boolean(), v.string()], 'A yes/no field must be true or false.'),
  v.transform((x) => (typeof x === 'boolean' ? x : x.trim().toLowerCase())),
  v.check(
    (x) => typeof x === 'boolean' || ['true', 'false', 'on', 'off', '1', '0', ''].includes(x),
    'A yes/no field must be true or false.',
  ),
  v.transform((x) => x === true || x === 'true' || x === 'on' || x === '1'),
);

/** The admin form's variation: VariationName, VariationType (= variationValue), Price. */
export const VariationInputSchema = v.pipe(
  v.record(v.string(), v.unknown(), 'Each variation must be an object.'),
  v.transform(lowerFirstKeys),
  v.transform((o) => ({
    variationName: o.variationName,
    variationValue: o.variationValue ?? o.variationType,
    price: o.price,
  })),
  v.object({
    variationName: requiredText(LIMITS.variationText, 'Variation name'),
    variationValue: requiredText(LIMITS.variationText, 'Variation type'),
    price: v.optional(RupeesSchema, ''),
  }),
);
export type VariationInput = v.InferOutput<typeof VariationInputSchema>;

export const VariationListSchema = v.pipe(
  v.array(VariationInputSchema, 'Variations must be a list.'),
  v.maxLength(LIMITS.variations, `At most ${LIMITS.variations} variations.`),
);

/** Keys as the spec writes them: an old client may send `Title` or `title`; both are the same field. */
export function lowerFirstKeys(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(o)) {
    const key = k.charAt(0).toLowerCase() + k.slice(1);
    // "productID", "ProductId" and "productId" all name the same field.
    out[key.replace(/Id$/, 'ID')] = value;
  }
  return out;
}

const IdListSchema = v.pipe(
  v.array(IdSchema, 'Choose at least one category.'),
  v.minLength(1, 'Choose at least one category.'),
  v.maxLength(LIMITS.categoriesPerProduct, `At most ${LIMITS.categoriesPerProduct} categories.`),
);

/** `POST /AddCategory` ({CategoryName}). */
export const AddCategorySchema = v.pipe(
  v.record(v.string(), v.unknown(), 'The request body must be an object.'),
  v.transform(lowerFirstKeys),
  v.object({
    categoryName: v.optional(
      v.pipe(
        v.string('Please enter a category name.'),
        v.trim(),
        v.nonEmpty('Please enter a category name.'),
        v.maxLength(LIMITS.categoryName, `A category name has at most ${LIMITS.categoryName} characters.`),
        typedText('The category name'),
      ),
      '',
    ),
  }),
);

/** The text fields of `POST /AddProductForDash` after the multipart parts are collected. */
export const AddProductFieldsSchema = v.object({
  categoryIDs: IdListSchema,
  title: requiredText(LIMITS.title, 'Title'),
  description: requiredText(LIMITS.description, 'Description'),
  labelHeading: requiredText(LIMITS.label, 'Label heading'),
  labelDescription: requiredText(LIMITS.label, 'Label description'),
  price: v.optional(RupeesSchema, ''),
  sizeOrWeight: v.optional(text(LIMITS.sizeOrWeight, 'Size or weight'), ''),
  variations: v.optional(VariationListSchema, []),
  takesMessage: v.optional(FlagSchema, false),
  photoCake: v.optional(FlagSchema, false),
  /** Names only here; the route checks them against the list (OccasionListSchema), which the first screen does without. */
  occasions: v.optional(v.array(v.string(), 'Occasions must be a list.'), []),
});
export type AddProductFields = v.InferOutput<typeof AddProductFieldsSchema>;

/**
 * `PUT /UpdateProductDetails`: the full product object as the spec's client
 * holds it (it sends back what it loaded, edited). Title, description and
 * price are required (spec 5, "Edit product"); categories and variations are
 * replaced only when sent; images, imagePath and read-only fields are ignored.
 */
export const UpdateProductSchema = v.pipe(
  v.record(v.string(), v.unknown(), 'The request body must be a product object.'),
  v.transform(lowerFirstKeys),
  v.object({
    productID: v.optional(IdSchema, ''),
    title: requiredText(LIMITS.title, 'Title'),
    description: requiredText(LIMITS.description, 'Description'),
    price: v.optional(RupeesSchema, ''),
    labelHeading: v.optional(v.nullable(text(LIMITS.label, 'Label heading'))),
    labelDescription: v.optional(v.nullable(text(LIMITS.label, 'Label description'))),
    sizeOrWeight: v.optional(v.nullable(text(LIMITS.sizeOrWeight, 'Size or weight'))),
    categories: v.optional(
      v.pipe(
        v.array(
          v.pipe(
            v.record(v.string(), v.unknown(), 'Each category must be an object with a categoryID.'),
            v.transform(lowerFirstKeys),
            v.object({ categoryID: IdSchema }),
          ),
          'Categories must be a list.',
        ),
        v.minLength(1, 'Choose at least one category.'),
        v.maxLength(LIMITS.categoriesPerProduct, `At most ${LIMITS.categoriesPerProduct} categories.`),
      ),
    ),
    variations: v.optional(v.nullable(VariationListSchema)),
    /** Kept as they are when not sent (the spec's client knows nothing of them). */
    takesMessage: v.optional(FlagSchema),
    photoCake: v.optional(FlagSchema),
    /** A list of occasion names; kept as they are when not sent, as the gift flags. */
    occasions: v.optional(v.array(v.string(), 'Occasions must be a list.')),
  }),
);
export type UpdateProductInput = v.InferOutput<typeof UpdateProductSchema>;

export const IdParamsSchema = v.object({ id: IdSchema });
export const ProductsQuerySchema = v.object({
  categoryId: v.optional(IdSchema),
});
export const DeleteCategoryQuerySchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform(lowerFirstKeys),
  v.object({ categoryID: v.optional(IdSchema, '') }),
);
export const DeleteProductQuerySchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.transform(lowerFirstKeys),
  v.object({ productID: v.optional(IdSchema, '') }),
);
export const SearchQuerySchema = v.object({
  q: v.optional(text(LIMITS.searchQuery, 'The search text'), ''),
});

/**
 * A feed cursor: "V" (everything up to catalogue version V is on the device)
 * or "S.V.P" (a page in the middle of sending the changes between versions S
 * and V, products up to id P already sent). Devices treat it as opaque.
 */
/** Ids are 32-bit integers in the database (PostgreSQL refuses a larger number in a query on them). */
export const MAX_ROW_ID = 2_147_483_647;
export const CURSOR_PATTERN = /^\d{1,15}(\.\d{1,15}\.\d{1,15})?$/;
export const FeedQuerySchema = v.object({
  // An empty `since=` is a device with no cursor yet: a full snapshot, like no `since` at all.
  since: v.optional(
    v.pipe(
      v.string('The cursor is not one this feed gave out.'),
      v.trim(),
      v.check(
        (s) => s === '' || (CURSOR_PATTERN.test(s) && Number(s.split('.')[2] ?? 0) <= MAX_ROW_ID),
        'The cursor is not one this feed gave out.',
      ),
      v.transform((s) => (s === '' ? undefined : s)),
    ),
  ),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,6}$/, 'The limit must be a whole number.'),
      v.transform(Number),
      v.minValue(1, 'The limit must be at least 1.'),
      v.maxValue(LIMITS.feedPage, `The limit must be at most ${LIMITS.feedPage}.`),
    ),
    '500',
  ),
});

/** `GET /GetTopProductsByCategory`: one group per category name, at most 6 products each. */
export const CategoryGroupSchema = v.object({
  ...CategorySchema.entries,
  products: v.array(ProductSchema),
});
export type CategoryGroup = v.InferOutput<typeof CategoryGroupSchema>;
export const TOP_PER_CATEGORY = 6;
