/** Add and Edit product's one draft: the fields and pictures as edited, what they started from, the problems found. */
import { useCallback, useState } from 'react';
import { adminMessages } from '../../domain/admin-messages.js';
import type { Product } from '../../domain/catalogue.js';
import { messages } from '../../domain/messages.js';
import { knownOccasions } from '../../domain/occasions.js';
import { type ProductField, productFormProblems } from '../../domain/product-form.js';
import { useNotify } from '../hooks/useAlerts.js';
import type { ImageItem } from './ImageEditor.js';
import { useLeaveGuardState } from './leave-guard.js';
import { imagesChanged, type ProductDraft } from './product-requests.js';

/** A draft's starting point: a new product's empty form, or the product as the server holds it. */
export interface SavedDraft {
  values: ProductDraft;
  images: ImageItem[];
}

const EMPTY: ProductDraft = {
  categoryIDs: [],
  title: '',
  description: '',
  labelHeading: '',
  labelDescription: '',
  price: '',
  sizeOrWeight: '',
  variations: [],
  takesMessage: false,
  photoCake: false,
  occasions: [],
};

export const NEW_PRODUCT: SavedDraft = { values: EMPTY, images: [] };

/** The server's pictures as the editor keeps them. */
export function keptImages(images: readonly { src: string; thumb: string }[]): ImageItem[] {
  return images.map((i): ImageItem => ({ kind: 'kept', src: i.src, thumb: i.thumb }));
}

export function savedProduct(p: Product): SavedDraft {
  return {
    values: {
      categoryIDs: p.categories.map((c) => c.categoryID),
      title: p.title,
      description: p.description,
      labelHeading: p.labelHeading,
      labelDescription: p.labelDescription,
      price: String(p.price),
      sizeOrWeight: p.sizeOrWeight,
      // A product the device stored before the flags existed has none.
      takesMessage: p.takesMessage ?? false,
      photoCake: p.photoCake ?? false,
      occasions: knownOccasions(p.occasions),
      variations: p.variations.map((v) => ({
        variationName: v.variationName,
        variationType: v.variationValue,
        price: String(v.price),
      })),
    },
    images: keptImages(p.images),
  };
}

function focusFirst(found: ProductField[]) {
  const first = found[0];
  if (!first) return;
  requestAnimationFrame(() => document.getElementById(`pf-${first.replace(/\./g, '-')}`)?.focus());
}

/**
 * `initial`: where the draft starts, or null until the product has loaded (then `start`). The
 * spec's edit form requires no labels, and names the missing pictures in its own message.
 */
export function useProductDraft(mode: 'add' | 'edit', initial: SavedDraft | null) {
  const notify = useNotify();
  const [original, setOriginal] = useState<SavedDraft | null>(initial);
  const [values, setValues] = useState<ProductDraft>(initial?.values ?? EMPTY);
  const [images, setImages] = useState<ImageItem[]>(initial?.images ?? []);
  const [problems, setProblems] = useState<ProductField[]>([]);
  const [busy, setBusy] = useState(false);
  const picturesChanged = original !== null && imagesChanged(original.images, images);
  const dirty =
    original !== null && (JSON.stringify(values) !== JSON.stringify(original.values) || picturesChanged);
  useLeaveGuardState(dirty && !busy);

  /** The draft becomes `next`, the state it is now compared with (the same function at every render). */
  const start = useCallback((next: SavedDraft) => {
    setOriginal(next);
    setValues(next.values);
    setImages(next.images);
  }, []);

  return {
    values,
    setValues,
    images,
    setImages,
    problems,
    busy,
    setBusy,
    /** Whether the form is shown: a new product's at once, an edited one's once it has loaded. */
    ready: original !== null,
    picturesChanged,
    start,
    /** After Add: the empty form again. */
    reset() {
      start(NEW_PRODUCT);
      setProblems([]);
    },
    /** After Edit's save: the product as saved is what the draft is compared with; the fields keep what is typed. */
    saved(next: SavedDraft) {
      setOriginal(next);
      setImages(next.images);
      setProblems([]);
    },
    /** Marks the fields that break the rules and focuses the first; true when there are none. */
    check(): boolean {
      const found = productFormProblems({ ...values, imageCount: images.length }, mode);
      if (mode === 'edit' && !images.length) found.push('images');
      setProblems(found);
      if (!found.length) return true;
      notify(
        mode === 'edit' && found.includes('images')
          ? adminMessages.imagesRequired
          : messages.productFieldsRequired,
        'error',
      );
      focusFirst(found);
      return false;
    },
  };
}
