import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { UpdateProductSchema } from '../../domain/catalogue.js';
import { OccasionListSchema } from '../../domain/occasions.js';
import type { ImageItem } from '../../web/admin/ImageEditor.js';
import {
  addProductRequest,
  imagesChanged,
  type ProductDraft,
  productImagesRequest,
  updateProductRequest,
} from '../../web/admin/product-requests.js';

/**
 * The admin's product form turns its draft into the API's requests here: Add's multipart form,
 * Edit's body, and Edit's pictures' form (kept pictures by address, new ones by their place among
 * the uploaded files). Read back entry by entry, as the server's multipart reader sees them.
 */
const draft: ProductDraft = {
  categoryIDs: [3, 7],
  title: '  Rose Bouquet ',
  description: ' <p>Twelve <b>red</b> roses</p>\n',
  labelHeading: ' Fresh ',
  labelDescription: ' Cut this morning ',
  price: ' 899 ',
  sizeOrWeight: ' 12 stems ',
  variations: [
    { variationName: ' Stems ', variationType: ' 24 ', price: ' 1599 ' },
    { variationName: 'Wrap', variationType: 'Kraft paper', price: '949' },
  ],
  takesMessage: true,
  photoCake: false,
  occasions: ["Valentine's Day", 'Anniversary'],
};

const kept = (name: string): ImageItem => ({
  kind: 'kept',
  src: `/media/products/${name}.webp`,
  thumb: `/media/products/${name}-thumb.webp`,
});
const chosen = (name: string): ImageItem => ({
  kind: 'new',
  file: new File([`${name} bytes`], `${name}.jpg`, { type: 'image/jpeg' }),
  url: `blob:http://shop.test/${name}`,
});

/** A form's entries as [name, text] or [name, file name, file text], in order. */
async function entriesOf(form: FormData): Promise<(string | [string, string, string])[][]> {
  const out: (string | [string, string, string])[][] = [];
  for (const [name, value] of form.entries()) {
    out.push(
      typeof value === 'string' ? [name, value] : [name, [value.name, value.type, await value.text()]],
    );
  }
  return out;
}

describe('addProductRequest', () => {
  it('sends the spec fields trimmed (the HTML description as typed), the variations as JSON and the new pictures in order', async () => {
    const form = addProductRequest(draft, [chosen('front'), chosen('side')]);
    expect(await entriesOf(form)).toEqual([
      ['CategoryID', '3'],
      ['CategoryID', '7'],
      ['Title', 'Rose Bouquet'],
      ['Description', ' <p>Twelve <b>red</b> roses</p>\n'],
      ['LabelHeading', 'Fresh'],
      ['LabelDescription', 'Cut this morning'],
      ['Price', '899'],
      ['SizeOrWeight', '12 stems'],
      ['takesMessage', 'true'],
      ['photoCake', 'false'],
      ['Occasion', "Valentine's Day"],
      ['Occasion', 'Anniversary'],
      [
        'variationsJson',
        JSON.stringify([
          { VariationName: 'Stems', VariationType: '24', Price: '1599' },
          { VariationName: 'Wrap', VariationType: 'Kraft paper', Price: '949' },
        ]),
      ],
      ['images', ['front.jpg', 'image/jpeg', 'front bytes']],
      ['images', ['side.jpg', 'image/jpeg', 'side bytes']],
    ]);
  });

  it('sends no variations as an empty list, and only pictures chosen on the device', async () => {
    const form = addProductRequest({ ...draft, variations: [], takesMessage: false, photoCake: true }, [
      kept('old'),
      chosen('only'),
    ]);
    expect(form.get('variationsJson')).toBe('[]');
    expect(form.get('takesMessage')).toBe('false');
    expect(form.get('photoCake')).toBe('true');
    expect(form.getAll('images').map((f) => (f as File).name)).toEqual(['only.jpg']);
  });
});

describe('updateProductRequest', () => {
  it('is the product object the update endpoint takes, the texts trimmed', () => {
    const body = updateProductRequest(41, draft);
    expect(body).toEqual({
      productID: 41,
      title: 'Rose Bouquet',
      description: ' <p>Twelve <b>red</b> roses</p>\n',
      price: '899',
      labelHeading: 'Fresh',
      labelDescription: 'Cut this morning',
      sizeOrWeight: '12 stems',
      takesMessage: true,
      photoCake: false,
      occasions: ["Valentine's Day", 'Anniversary'],
      categories: [{ categoryID: 3 }, { categoryID: 7 }],
      variations: [
        { variationName: 'Stems', variationType: '24', price: '1599' },
        { variationName: 'Wrap', variationType: 'Kraft paper', price: '949' },
      ],
    });
    // The server's own schema takes it as it is.
    const parsed = v.safeParse(UpdateProductSchema, body);
    expect(parsed.issues).toBeUndefined();
    expect(parsed.output).toMatchObject({ productID: 41, title: 'Rose Bouquet', photoCake: false });
    // The route's check of the occasions takes them, in the list's order however they were ticked.
    expect(v.parse(OccasionListSchema, body.occasions)).toEqual(['Anniversary', "Valentine's Day"]);
  });

  it('sends no variations as an empty list, which the server takes as "none"', () => {
    const body = updateProductRequest(41, { ...draft, variations: [] });
    expect(body.variations).toEqual([]);
    expect(v.safeParse(UpdateProductSchema, body).success).toBe(true);
  });
});

describe('productImagesRequest', () => {
  it('lists the kept pictures by address, in their new order, with none uploaded', async () => {
    const form = productImagesRequest([kept('b'), kept('a')]);
    expect(await entriesOf(form)).toEqual([
      ['order', JSON.stringify([{ src: '/media/products/b.webp' }, { src: '/media/products/a.webp' }])],
    ]);
  });

  it('names each added picture by its place among the uploaded files', async () => {
    const form = productImagesRequest([chosen('new-main'), kept('a'), chosen('extra'), kept('c')]);
    expect(await entriesOf(form)).toEqual([
      [
        'order',
        JSON.stringify([
          { file: 0 },
          { src: '/media/products/a.webp' },
          { file: 1 },
          { src: '/media/products/c.webp' },
        ]),
      ],
      ['images', ['new-main.jpg', 'image/jpeg', 'new-main bytes']],
      ['images', ['extra.jpg', 'image/jpeg', 'extra bytes']],
    ]);
  });
});

describe('imagesChanged', () => {
  const before = [kept('a'), kept('b'), kept('c')];

  it('is false for the same pictures in the same order', () => {
    expect(imagesChanged(before, [kept('a'), kept('b'), kept('c')])).toBe(false);
    expect(imagesChanged([], [])).toBe(false);
  });

  it('is true for a picture removed, moved, added, or replaced by a new one', () => {
    expect(imagesChanged(before, [kept('a'), kept('c')])).toBe(true);
    expect(imagesChanged(before, [kept('b'), kept('a'), kept('c')])).toBe(true);
    expect(imagesChanged(before, [...before, chosen('d')])).toBe(true);
    expect(imagesChanged(before, [kept('a'), chosen('b2'), kept('c')])).toBe(true);
    expect(imagesChanged([], [chosen('first')])).toBe(true);
  });
});
