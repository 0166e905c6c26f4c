/**
 * The admin's product form: its values as typed, the spec's add and edit rules over them, and the
 * image editor's reorder.
 */
import { LIMITS } from './catalogue.js';

export interface VariationRow {
  variationName: string;
  variationType: string;
  price: string;
}

export interface ProductFormValues {
  categoryIDs: number[];
  title: string;
  description: string;
  labelHeading: string;
  labelDescription: string;
  price: string;
  sizeOrWeight: string;
  variations: VariationRow[];
  imageCount: number;
}

export type ProductField =
  | 'categoryIDs'
  | 'title'
  | 'description'
  | 'labelHeading'
  | 'labelDescription'
  | 'price'
  | 'images'
  | `variations.${number}.${'variationName' | 'variationType' | 'price'}`;

/**
 * The form's names for its fields in the owner's words, each with where the shopper sees it and
 * an example. The API keeps the spec's names (`labelHeading`, `VariationName`, `VariationType`):
 * those are for programs, these for the person filling the form.
 */
export const productFormWords = {
  labelHeading: 'Highlight heading',
  labelHeadingHelp:
    'A short bold line on the product page, just under the description. Example: "Eggless on request".',
  labelDescription: 'Highlight text',
  labelDescriptionHelp:
    'The sentence under that heading on the product page. Example: "Tell us in the order note and we bake it without eggs."',
  variations: 'Options (sizes with their own price)',
  noVariations: 'No options: the product has one price.',
  variationName: 'Option name',
  variationNameHelp: 'What the shopper chooses. Example: "Weight" or "Stems".',
  variationType: 'Option value',
  variationTypeHelp:
    'This choice, as the shopper picks it under "Choose an option" on the product page. Example: "1 kg" or "24 stems".',
  variationPrice: 'Price of this option (₹)',
  addVariation: 'Add an option',
  removeVariation: (n: number) => `Remove option ${n}`,
} as const;

const isRupees = (s: string) => /^\d{1,9}$/.test(s.trim()) && Number(s.trim()) <= LIMITS.maxPrice;

/**
 * The spec's add-product rules (section 5): at least one category, title,
 * description, label heading and label description; a price of 0 or more; each
 * variation with name, type and a price of 0 or more; images selected. The
 * fields that break them, in form order (the screen marks them and says the
 * spec's one message). Edit uses the same rules where the spec's edit form
 * has the field (title, description and price are required there too).
 */
export function productFormProblems(f: ProductFormValues, mode: 'add' | 'edit'): ProductField[] {
  const out: ProductField[] = [];
  if (!f.categoryIDs.length) out.push('categoryIDs');
  if (!f.title.trim()) out.push('title');
  if (!f.description.trim()) out.push('description');
  if (mode === 'add' && !f.labelHeading.trim()) out.push('labelHeading');
  if (mode === 'add' && !f.labelDescription.trim()) out.push('labelDescription');
  if (!isRupees(f.price)) out.push('price');
  f.variations.forEach((v, i) => {
    if (!v.variationName.trim()) out.push(`variations.${i}.variationName`);
    if (!v.variationType.trim()) out.push(`variations.${i}.variationType`);
    if (!isRupees(v.price)) out.push(`variations.${i}.price`);
  });
  if (mode === 'add' && f.imageCount < 1) out.push('images');
  return out;
}

/** Moves the item at `from` to `to` (a new array); the image editor's reorder. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return [...list];
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item as T);
  return copy;
}
