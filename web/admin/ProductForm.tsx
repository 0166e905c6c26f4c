/**
 * Add product (the spec's multipart form) and Edit product (`/edit-products/{id}`, the spec's
 * fields and the rest of the product), one form on one draft (`useProductDraft`). The description
 * is HTML; the preview shows what the shop will show, through the same sanitizer.
 */
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { adminApi } from '../../domain/admin.contract.js';
import { catalogueApi } from '../../domain/catalogue.contract.js';
import { LIMITS } from '../../domain/catalogue.js';
import { messages } from '../../domain/messages.js';
import { type ProductField, type VariationRow, productFormWords as w } from '../../domain/product-form.js';
import { ApiError } from '../api/client.js';
import { useNotify } from '../hooks/useAlerts.js';
import { useAdminCall, useAdminQuery } from './connection.js';
import { ImageEditor } from './ImageEditor.js';
import { OccasionTicks } from './OccasionTicks.js';
import {
  addProductRequest,
  type ProductDraft,
  productImagesRequest,
  updateProductRequest,
} from './product-requests.js';
import { LoadError, Loading, Screen } from './ui.js';
import { keptImages, NEW_PRODUCT, savedProduct, useProductDraft } from './useProductDraft.js';

type Draft = ReturnType<typeof useProductDraft>;

const errorText = (err: unknown, fallback: string) =>
  err instanceof ApiError && !err.offline && err.envelope ? `Error: ${err.message}` : fallback;

export function AddProduct() {
  const draft = useProductDraft('add', NEW_PRODUCT);
  const notify = useNotify();
  const adminCall = useAdminCall();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!draft.check()) return;
    const form = addProductRequest(draft.values, draft.images);
    draft.setBusy(true);
    try {
      const res = await adminCall(catalogueApi.addProduct, { body: form });
      notify(res.sys_message || messages.productAdded, 'success');
      for (const img of draft.images) if (img.kind === 'new') URL.revokeObjectURL(img.url);
      draft.reset();
    } catch (err) {
      notify(errorText(err, messages.somethingWentWrongDot), 'error');
    } finally {
      draft.setBusy(false);
    }
  };

  return (
    <Screen title="Add Product">
      <ProductFields mode="add" draft={draft} onSubmit={submit} submitLabel="Add Product" />
    </Screen>
  );
}

export function EditProduct({ id }: { id: string }) {
  const notify = useNotify();
  const adminCall = useAdminCall();
  const loaded = useAdminQuery(catalogueApi.getProductById, { params: { id }, token: null }, `product-${id}`);
  const draft = useProductDraft('edit', null);
  const { start } = draft;
  useEffect(() => {
    const p = loaded.data;
    if (!p) return;
    start(savedProduct(p));
  }, [loaded.data, start]);

  const notFound = loaded.error && !loaded.offline && loaded.error === messages.productNotFound;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!draft.check()) return;
    const { values, images } = draft;
    draft.setBusy(true);
    try {
      await adminCall(catalogueApi.updateProduct, { body: updateProductRequest(Number(id), values) });
      let kept = images;
      if (draft.picturesChanged) {
        const res = await adminCall(adminApi.productImages, {
          params: { id },
          body: productImagesRequest(images),
        });
        kept = keptImages(res.data?.images ?? []);
        for (const img of images) if (img.kind === 'new') URL.revokeObjectURL(img.url);
      }
      draft.saved({ values, images: kept });
      notify(messages.productUpdated, 'success');
    } catch (err) {
      notify(
        err instanceof ApiError && !err.offline
          ? `${messages.productUpdateFailed} ${err.message}`
          : messages.somethingWentWrongDot,
        'error',
      );
    } finally {
      draft.setBusy(false);
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
      {loaded.loading && !draft.ready && <Loading />}
      {draft.ready && (
        <ProductFields mode="edit" draft={draft} onSubmit={submit} submitLabel="Update Product" />
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

function ProductFields({
  mode,
  draft,
  onSubmit,
  submitLabel,
}: {
  mode: 'add' | 'edit';
  draft: Draft;
  onSubmit(e: FormEvent): void;
  submitLabel: string;
}) {
  const { values, setValues, images, setImages, problems, busy } = draft;
  const categories = useAdminQuery(catalogueApi.getCategories, { token: null }, 'categories');
  const bad = (f: ProductField) => problems.includes(f) || undefined;
  const set = <K extends keyof ProductDraft>(key: K, value: ProductDraft[K]) =>
    setValues({ ...values, [key]: value });
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
    help?: string,
  ) => (
    <div className="admin-field">
      <label htmlFor={`pf-${field}`}>
        {label}
        {required && <abbr title="required"> *</abbr>}
      </label>
      <input
        id={`pf-${field}`}
        value={values[field]}
        maxLength={max}
        onChange={(e) => set(field, e.target.value)}
        aria-invalid={bad(field)}
        aria-describedby={help ? `pf-${field}-help` : undefined}
      />
      {help ? (
        <p id={`pf-${field}-help`} className="muted admin-help">
          {help}
        </p>
      ) : null}
    </div>
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
        {text('labelHeading', w.labelHeading, LIMITS.label, mode === 'add', w.labelHeadingHelp)}
        {text('labelDescription', w.labelDescription, LIMITS.label, mode === 'add', w.labelDescriptionHelp)}
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
      <OccasionTicks value={values.occasions} onChange={(next) => set('occasions', next)} />
      <ImageEditor images={images} setImages={setImages} invalid={bad('images')} />
      <fieldset className="admin-panel">
        <legend>{w.variations}</legend>
        {values.variations.length === 0 ? (
          <p className="muted">{w.noVariations}</p>
        ) : (
          <>
            <p id="pf-variation-name-help" className="muted admin-help">
              <strong>{w.variationName}:</strong> {w.variationNameHelp}
            </p>
            <p id="pf-variation-value-help" className="muted admin-help">
              <strong>{w.variationType}:</strong> {w.variationTypeHelp}
            </p>
          </>
        )}
        {values.variations.map((v, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place.
          <div className="admin-row admin-variation" key={i}>
            <label className="admin-field">
              <span>{w.variationName}</span>
              <input
                id={`pf-variations-${i}-variationName`}
                aria-describedby="pf-variation-name-help"
                value={v.variationName}
                onChange={(e) => setVariation(i, { variationName: e.target.value })}
                aria-invalid={bad(`variations.${i}.variationName`)}
              />
            </label>
            <label className="admin-field">
              <span>{w.variationType}</span>
              <input
                id={`pf-variations-${i}-variationType`}
                aria-describedby="pf-variation-value-help"
                value={v.variationType}
                onChange={(e) => setVariation(i, { variationType: e.target.value })}
                aria-invalid={bad(`variations.${i}.variationType`)}
              />
            </label>
            <label className="admin-field">
              <span>{w.variationPrice}</span>
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
              {w.removeVariation(i + 1)}
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
          {w.addVariation}
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
