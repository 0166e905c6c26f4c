/** The product form's draft turned into the API's requests: Add's multipart form, Edit's body and its pictures' form. */
import type { Occasion } from '../../domain/occasions.js';
import type { ProductFormValues } from '../../domain/product-form.js';
import type { ImageItem } from './ImageEditor.js';

/**
 * The form's fields as typed, the gift flags (the product takes a message on the cake, it is a
 * photo cake), and the occasions ticked.
 */
export type ProductDraft = Omit<ProductFormValues, 'imageCount'> & {
  takesMessage: boolean;
  photoCake: boolean;
  occasions: Occasion[];
};

/**
 * `POST /api/AddProductForDash`'s multipart form, in the spec's field names: a `CategoryID` per category,
 * the texts trimmed (the description is HTML and goes as typed), the variations as JSON, and the
 * pictures chosen on this device in their order (the first is the main picture).
 */
export function addProductRequest(draft: ProductDraft, images: readonly ImageItem[]): FormData {
  const form = new FormData();
  for (const id of draft.categoryIDs) form.append('CategoryID', String(id));
  form.append('Title', draft.title.trim());
  form.append('Description', draft.description);
  form.append('LabelHeading', draft.labelHeading.trim());
  form.append('LabelDescription', draft.labelDescription.trim());
  form.append('Price', draft.price.trim());
  form.append('SizeOrWeight', draft.sizeOrWeight.trim());
  form.append('takesMessage', String(draft.takesMessage));
  form.append('photoCake', String(draft.photoCake));
  for (const o of draft.occasions) form.append('Occasion', o);
  form.append(
    'variationsJson',
    JSON.stringify(
      draft.variations.map((v) => ({
        VariationName: v.variationName.trim(),
        VariationType: v.variationType.trim(),
        Price: v.price.trim(),
      })),
    ),
  );
  for (const img of images) if (img.kind === 'new') form.append('images', img.file, img.file.name);
  return form;
}

/** `PUT /api/UpdateProductDetails`'s body: every field but the pictures, which have their own request. */
export function updateProductRequest(productID: number, draft: ProductDraft) {
  return {
    productID,
    title: draft.title.trim(),
    description: draft.description,
    price: draft.price.trim(),
    labelHeading: draft.labelHeading.trim(),
    labelDescription: draft.labelDescription.trim(),
    sizeOrWeight: draft.sizeOrWeight.trim(),
    takesMessage: draft.takesMessage,
    photoCake: draft.photoCake,
    occasions: draft.occasions,
    categories: draft.categoryIDs.map((categoryID) => ({ categoryID })),
    variations: draft.variations.map((v) => ({
      variationName: v.variationName.trim(),
      variationType: v.variationType.trim(),
      price: v.price.trim(),
    })),
  };
}

/**
 * `PUT /api/admin/products/{id}/images`'s form for an edited product: `order` lists the pictures as they now stand, a kept
 * one by its address and a new one by its place among the uploaded `images` files; a picture left
 * out of `order` is removed.
 */
export function productImagesRequest(images: readonly ImageItem[]): FormData {
  const form = new FormData();
  const files: File[] = [];
  const order = images.map((img) => {
    if (img.kind === 'kept') return { src: img.src };
    files.push(img.file);
    return { file: files.length - 1 };
  });
  form.append('order', JSON.stringify(order));
  for (const f of files) form.append('images', f, f.name);
  return form;
}

/** Whether the pictures differ from those the product had: one added, removed or moved. */
export function imagesChanged(before: readonly ImageItem[], now: readonly ImageItem[]): boolean {
  return (
    now.length !== before.length ||
    now.some((img, i) => {
      const was = before[i];
      return img.kind === 'new' || was?.kind !== 'kept' || img.src !== was.src;
    })
  );
}
