import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { adminApi } from '../../domain/admin.contract.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { catalogueApi } from '../../domain/catalogue.contract.js';
import { LIMITS, type Product } from '../../domain/catalogue.js';
import { messages } from '../../domain/messages.js';
import {
  moveItem,
  type ProductField,
  type ProductFormValues,
  productFormProblems,
  type VariationRow,
} from '../../domain/product-form.js';
import { ApiError } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { useLeaveGuardState } from './leave-guard.js';
import { LoadError, Loading, Screen } from './ui.js';

/**
 * Add product (the spec's multipart form) and Edit product (`/edit-products/{id}`,
 * the spec's fields and the rest of the product). Images: previews before
 * upload, reorder (the first is the main picture), remove. The description is
 * HTML; the preview shows what the shop will show, through the same sanitizer.
 */
export type ImageItem =
  | { kind: 'kept'; src: string; thumb: string }
  | { kind: 'new'; file: File; url: string };

/** The form's fields, and the gift flags (issue 26): the product takes a message on the cake, it is a photo cake. */
type Values = Omit<ProductFormValues, 'imageCount'> & { takesMessage: boolean; photoCake: boolean };

const EMPTY: Values = {
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
};

function fromProduct(p: Product): Values {
  return {
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
    variations: p.variations.map((v) => ({
      variationName: v.variationName,
      variationType: v.variationValue,
      price: String(v.price),
    })),
  };
}

const errorText = (err: unknown, fallback: string) =>
  err instanceof ApiError && !err.offline && err.envelope ? `Error: ${err.message}` : fallback;

export function AddProduct() {
  const [values, setValues] = useState<Values>(EMPTY);
  const [images, setImages] = useState<ImageItem[]>([]);
  const [problems, setProblems] = useState<ProductField[]>([]);
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const adminCall = useAdminCall();
  const dirty = JSON.stringify(values) !== JSON.stringify(EMPTY) || images.length > 0;
  useLeaveGuardState(dirty && !busy);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = productFormProblems({ ...values, imageCount: images.length }, 'add');
    setProblems(found);
    if (found.length) {
      notify(messages.productFieldsRequired, 'error');
      focusFirst(found);
      return;
    }
    const form = new FormData();
    for (const id of values.categoryIDs) form.append('CategoryID', String(id));
    form.append('Title', values.title.trim());
    form.append('Description', values.description);
    form.append('LabelHeading', values.labelHeading.trim());
    form.append('LabelDescription', values.labelDescription.trim());
    form.append('Price', values.price.trim());
    form.append('SizeOrWeight', values.sizeOrWeight.trim());
    form.append('takesMessage', String(values.takesMessage));
    form.append('photoCake', String(values.photoCake));
    form.append(
      'variationsJson',
      JSON.stringify(
        values.variations.map((v) => ({
          VariationName: v.variationName.trim(),
          VariationType: v.variationType.trim(),
          Price: v.price.trim(),
        })),
      ),
    );
    for (const img of images) if (img.kind === 'new') form.append('images', img.file, img.file.name);
    setBusy(true);
    try {
      const res = await adminCall(catalogueApi.addProduct, { body: form });
      notify(res.sys_message || messages.productAdded, 'success');
      for (const img of images) if (img.kind === 'new') URL.revokeObjectURL(img.url);
      setValues(EMPTY);
      setImages([]);
      setProblems([]);
    } catch (err) {
      notify(errorText(err, messages.somethingWentWrongDot), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Screen title="Add Product">
      <ProductFields
        mode="add"
        values={values}
        setValues={setValues}
        images={images}
        setImages={setImages}
        problems={problems}
        busy={busy}
        onSubmit={submit}
        submitLabel="Add Product"
      />
    </Screen>
  );
}

export function EditProduct({ id }: { id: string }) {
  const notify = useNotify();
  const adminCall = useAdminCall();
  const loaded = useAdminQuery(catalogueApi.getProductById, { params: { id }, token: null }, `product-${id}`);
  const [original, setOriginal] = useState<{ values: Values; images: ImageItem[] } | null>(null);
  const [values, setValues] = useState<Values>(EMPTY);
  const [images, setImages] = useState<ImageItem[]>([]);
  const [problems, setProblems] = useState<ProductField[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const p = loaded.data;
    if (!p) return;
    const start = {
      values: fromProduct(p),
      images: p.images.map((i): ImageItem => ({ kind: 'kept', src: i.src, thumb: i.thumb })),
    };
    setOriginal(start);
    setValues(start.values);
    setImages(start.images);
  }, [loaded.data]);
  const imagesChanged =
    original !== null &&
    (images.length !== original.images.length ||
      images.some(
        (img, i) => img.kind === 'new' || img.src !== (original.images[i] as { src?: string })?.src,
      ));
  const dirty =
    original !== null && (JSON.stringify(values) !== JSON.stringify(original.values) || imagesChanged);
  useLeaveGuardState(dirty && !busy);

  const notFound = loaded.error && !loaded.offline && loaded.error === messages.productNotFound;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = productFormProblems({ ...values, imageCount: images.length }, 'edit');
    if (!images.length) found.push('images');
    setProblems(found);
    if (found.length) {
      notify(
        found.includes('images') ? adminMessages.imagesRequired : messages.productFieldsRequired,
        'error',
      );
      focusFirst(found);
      return;
    }
    setBusy(true);
    try {
      await adminCall(catalogueApi.updateProduct, {
        body: {
          productID: Number(id),
          title: values.title.trim(),
          description: values.description,
          price: values.price.trim(),
          labelHeading: values.labelHeading.trim(),
          labelDescription: values.labelDescription.trim(),
          sizeOrWeight: values.sizeOrWeight.trim(),
          takesMessage: values.takesMessage,
          photoCake: values.photoCake,
          categories: values.categoryIDs.map((categoryID) => ({ categoryID })),
          variations: values.variations.map((v) => ({
            variationName: v.variationName.trim(),
            variationType: v.variationType.trim(),
            price: v.price.trim(),
          })),
        },
      });
      let kept = images;
      if (imagesChanged) {
        const form = new FormData();
        const files: File[] = [];
        const order = images.map((img) => {
          if (img.kind === 'kept') return { src: img.src };
          files.push(img.file);
          return { file: files.length - 1 };
        });
        form.append('order', JSON.stringify(order));
        for (const f of files) form.append('images', f, f.name);
        const res = await adminCall(adminApi.productImages, { params: { id }, body: form });
        kept = (res.data?.images ?? []).map((i): ImageItem => ({ kind: 'kept', src: i.src, thumb: i.thumb }));
        for (const img of images) if (img.kind === 'new') URL.revokeObjectURL(img.url);
      }
      setImages(kept);
      setOriginal({ values, images: kept });
      setProblems([]);
      notify(messages.productUpdated, 'success');
    } catch (err) {
      notify(
        err instanceof ApiError && !err.offline
          ? `${messages.productUpdateFailed} ${err.message}`
          : messages.somethingWentWrongDot,
        'error',
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Screen title={`Edit Product #${id}`}>
      {notFound && (
        <p className="admin-banner admin-banner--error" role="alert">
          {messages.productNotFound}
        </p>
      )}
      {loaded.error && !notFound && <LoadError text={messages.productLoadError} onRetry={loaded.reload} />}
      {loaded.loading && !original && <Loading />}
      {original && (
        <ProductFields
          mode="edit"
          values={values}
          setValues={setValues}
          images={images}
          setImages={setImages}
          problems={problems}
          busy={busy}
          onSubmit={submit}
          submitLabel="Update Product"
        />
      )}
    </Screen>
  );
}

type Sanitize = (html: string) => string;
let sanitizer: Promise<Sanitize> | null = null;

/** A picture typed into a description without alt text is decoration in the preview (as a screen reader should take it). */
function withAlt(html: string): string {
  if (!html.includes('<img')) return html;
  const t = document.createElement('template');
  t.innerHTML = html;
  for (const img of t.content.querySelectorAll('img:not([alt])')) img.setAttribute('alt', '');
  return t.innerHTML;
}

/**
 * The description as the shop will show it, through the same sanitizer (DOMPurify). Loaded when
 * a product form opens, not with the rest of the admin: the dashboard and lists never need it.
 */
function useSanitized(html: string): string {
  const [sanitize, setSanitize] = useState<Sanitize | null>(null);
  useEffect(() => {
    // No style attributes, as the server's sanitizer keeps none: the CSP would refuse them in the preview anyway.
    sanitizer ??= import('dompurify').then(
      (m) => (s: string) => withAlt(m.default.sanitize(s, { FORBID_ATTR: ['style'] })),
    );
    let live = true;
    sanitizer.then((fn) => live && setSanitize(() => fn));
    return () => {
      live = false;
    };
  }, []);
  // Once per text, not on every render: each keystroke in another field re-rendered the form and parsed
  // the description again (and, with an attack in it, had the page's CSP report its handlers again).
  return useMemo(() => (sanitize ? sanitize(html) : ''), [sanitize, html]);
}

function focusFirst(found: ProductField[]) {
  const first = found[0];
  if (!first) return;
  requestAnimationFrame(() => document.getElementById(`pf-${first.replace(/\./g, '-')}`)?.focus());
}

function ProductFields({
  mode,
  values,
  setValues,
  images,
  setImages,
  problems,
  busy,
  onSubmit,
  submitLabel,
}: {
  mode: 'add' | 'edit';
  values: Values;
  setValues(v: Values): void;
  images: ImageItem[];
  setImages(i: ImageItem[]): void;
  problems: ProductField[];
  busy: boolean;
  onSubmit(e: FormEvent): void;
  submitLabel: string;
}) {
  const categories = useAdminQuery(catalogueApi.getCategories, { token: null }, 'categories');
  const bad = (f: ProductField) => problems.includes(f) || undefined;
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues({ ...values, [key]: value });
  const preview = useSanitized(values.description);
  const setVariation = (i: number, change: Partial<VariationRow>) =>
    set(
      'variations',
      values.variations.map((v, j) => (j === i ? { ...v, ...change } : v)),
    );
  const text = (
    field: 'title' | 'labelHeading' | 'labelDescription',
    label: string,
    max: number,
    required: boolean,
  ) => (
    <label className="admin-field">
      <span>
        {label}
        {required && <abbr title="required"> *</abbr>}
      </span>
      <input
        id={`pf-${field}`}
        value={values[field]}
        maxLength={max}
        onChange={(e) => set(field, e.target.value)}
        aria-invalid={bad(field)}
      />
    </label>
  );
  return (
    <form className="admin-form admin-product-form" onSubmit={onSubmit} noValidate>
      <fieldset className="admin-panel" id="pf-categoryIDs" tabIndex={-1} aria-invalid={bad('categoryIDs')}>
        <legend>
          Categories <abbr title="required">*</abbr>
        </legend>
        {categories.loading && !categories.data && <Loading />}
        <div className="admin-checks">
          {categories.data?.map((c) => (
            <label key={c.categoryID}>
              <input
                type="checkbox"
                checked={values.categoryIDs.includes(c.categoryID)}
                onChange={(e) =>
                  set(
                    'categoryIDs',
                    e.target.checked
                      ? [...values.categoryIDs, c.categoryID]
                      : values.categoryIDs.filter((x) => x !== c.categoryID),
                  )
                }
              />
              {c.categoryName}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="admin-panel">
        {text('title', 'Title', LIMITS.title, true)}
        <div className="admin-desc">
          <label className="admin-field">
            <span>
              Description (HTML) <abbr title="required">*</abbr>
            </span>
            <textarea
              id="pf-description"
              rows={6}
              value={values.description}
              onChange={(e) => set('description', e.target.value)}
              aria-invalid={bad('description')}
            />
          </label>
          <section className="admin-preview" aria-labelledby="desc-preview-title">
            <h2 id="desc-preview-title">Preview</h2>
            <div
              className="admin-preview__body"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by DOMPurify just above, as the shop does.
              dangerouslySetInnerHTML={{ __html: preview }}
            />
          </section>
        </div>
        {text('labelHeading', 'Label Heading', LIMITS.label, mode === 'add')}
        {text('labelDescription', 'Label Description', LIMITS.label, mode === 'add')}
        <div className="admin-row">
          <label className="admin-field">
            <span>
              Price (₹) <abbr title="required">*</abbr>
            </span>
            <input
              id="pf-price"
              inputMode="numeric"
              value={values.price}
              onChange={(e) => set('price', e.target.value.replace(/[^\d]/g, ''))}
              aria-invalid={bad('price')}
            />
          </label>
          <label className="admin-field">
            <span>Size or Weight</span>
            <input
              value={values.sizeOrWeight}
              maxLength={LIMITS.sizeOrWeight}
              onChange={(e) => set('sizeOrWeight', e.target.value)}
            />
          </label>
        </div>
      </div>
      <fieldset className="admin-panel">
        <legend>Gifts</legend>
        <div className="admin-checks">
          <label>
            <input
              type="checkbox"
              checked={values.takesMessage}
              onChange={(e) => set('takesMessage', e.target.checked)}
            />
            <span>Takes a message on the cake</span>
          </label>
          <label className="admin-check">
            <input
              type="checkbox"
              checked={values.photoCake}
              onChange={(e) => set('photoCake', e.target.checked)}
            />
            <span>Photo cake (the shopper adds a photo; needs a day's notice)</span>
          </label>
        </div>
      </fieldset>
      <ImageEditor images={images} setImages={setImages} invalid={bad('images')} />
      <fieldset className="admin-panel">
        <legend>Variations</legend>
        {values.variations.length === 0 && <p className="muted">No variations: the product has one price.</p>}
        {values.variations.map((v, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place.
          <div className="admin-row admin-variation" key={i}>
            <label className="admin-field">
              <span>VariationName</span>
              <input
                id={`pf-variations-${i}-variationName`}
                value={v.variationName}
                onChange={(e) => setVariation(i, { variationName: e.target.value })}
                aria-invalid={bad(`variations.${i}.variationName`)}
              />
            </label>
            <label className="admin-field">
              <span>VariationType</span>
              <input
                id={`pf-variations-${i}-variationType`}
                value={v.variationType}
                onChange={(e) => setVariation(i, { variationType: e.target.value })}
                aria-invalid={bad(`variations.${i}.variationType`)}
              />
            </label>
            <label className="admin-field">
              <span>Price</span>
              <input
                id={`pf-variations-${i}-price`}
                inputMode="numeric"
                value={v.price}
                onChange={(e) => setVariation(i, { price: e.target.value.replace(/[^\d]/g, '') })}
                aria-invalid={bad(`variations.${i}.price`)}
              />
            </label>
            <button
              type="button"
              className="btn admin-danger"
              onClick={() =>
                set(
                  'variations',
                  values.variations.filter((_, j) => j !== i),
                )
              }
            >
              Remove variation {i + 1}
            </button>
          </div>
        ))}
        <button
          type="button"
          className="btn"
          disabled={values.variations.length >= LIMITS.variations}
          onClick={() =>
            set('variations', [...values.variations, { variationName: '', variationType: '', price: '' }])
          }
        >
          Add variation
        </button>
      </fieldset>
      <div className="admin-actions">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? 'Saving...' : submitLabel}
        </button>
      </div>
    </form>
  );
}

function ImageEditor({
  images,
  setImages,
  invalid,
}: {
  images: ImageItem[];
  setImages(i: ImageItem[]): void;
  invalid?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const notify = useNotify();
  const add = (files: FileList | null) => {
    if (!files?.length) return;
    const room = LIMITS.imagesPerProduct - images.length;
    const chosen = [...files].slice(0, Math.max(0, room));
    if (chosen.length < files.length) notify(adminMessages.imagesLimit(LIMITS.imagesPerProduct), 'error');
    setImages([
      ...images,
      ...chosen.map((file): ImageItem => ({ kind: 'new', file, url: URL.createObjectURL(file) })),
    ]);
    if (input.current) input.current.value = '';
  };
  const remove = (i: number) => {
    const img = images[i];
    if (img?.kind === 'new') URL.revokeObjectURL(img.url);
    setImages(images.filter((_, j) => j !== i));
  };
  return (
    <fieldset className="admin-panel" aria-invalid={invalid}>
      <legend>
        Images <abbr title="required">*</abbr>
      </legend>
      <label className="admin-field">
        <span>
          Choose images (JPEG, PNG, WebP; at most {LIMITS.imagesPerProduct}; the first is the main picture)
        </span>
        <input
          id="pf-images"
          ref={input}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
          multiple
          onChange={(e) => add(e.target.files)}
        />
      </label>
      <ol className="admin-images">
        {images.map((img, i) => {
          const src = img.kind === 'new' ? img.url : img.thumb;
          const name = img.kind === 'new' ? img.file.name : `picture ${i + 1}`;
          return (
            <li key={src}>
              <img
                src={src}
                alt={`${i === 0 ? 'Main picture' : `Picture ${i + 1}`}: ${name}`}
                width={96}
                height={96}
              />
              {i === 0 && <span className="admin-images__main">Main</span>}
              <div className="admin-images__actions">
                <button
                  type="button"
                  className="btn"
                  disabled={i === 0}
                  onClick={() => setImages(moveItem(images, i, i - 1))}
                  aria-label={`Move ${name} earlier`}
                >
                  ←
                </button>
                <button
                  type="button"
                  className="btn"
                  disabled={i === images.length - 1}
                  onClick={() => setImages(moveItem(images, i, i + 1))}
                  aria-label={`Move ${name} later`}
                >
                  →
                </button>
                <button
                  type="button"
                  className="btn admin-danger"
                  onClick={() => remove(i)}
                  aria-label={`Remove ${name}`}
                >
                  ✕
                </button>
              </div>
            </li>
          );
        })}
      </ol>
    </fieldset>
  );
}
