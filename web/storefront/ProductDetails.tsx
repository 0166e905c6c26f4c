import DOMPurify from 'dompurify';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Navigate, useLocation, useParams } from 'react-router-dom';
import { unitPrice } from '../../domain/cart.js';
import type { Product, Variation } from '../../domain/catalogue.js';
import { messages, storefrontMessages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { mediaOf, PRODUCT_IMAGE_SIZES } from '../../domain/product-media.js';
import {
  COPIED_MS,
  chosenSize,
  defaultSizeKey,
  RELATED_LIST_SIZE,
  RELATED_LISTS,
  sizeOptions,
} from '../../domain/product-page.js';
import { liveOffer, offerMessages, offerTitle } from '../../domain/shop-offer.js';
import { AddedPopup } from '../components/AddedPopup.js';
import { ProductGrid } from '../components/ProductCard.js';
import { ProductImage } from '../components/ProductImage.js';
import { useAddWithPopup } from '../hooks/useAddToCart.js';
import { useLastSynced } from '../hooks/useCatalogue.js';
import { useShopSettings } from '../hooks/useDelivery.js';
import { useProduct, useProductsInCategoryId, useStableShuffle } from '../hooks/useProducts.js';
import { useTitle } from '../hooks/useTitle.js';
import { CakeGift, type CakeGiftState, cakeGiftProblem, emptyCakeGift } from './CakeGiftChoices.js';
import { ProductDelivery } from './CheckDelivery.js';
import { ProductBenefits, ShippingDetails } from './DeliveryLines.js';
import { copyText, ShareProduct } from './Share.js';

/**
 * Product details. A product has its own URL (`/products-details/{id}`, a
 * deliberate fix); the spec's `/products-details` with the product in
 * navigation state still works, and without either it goes to `/`. The
 * device's copy wins over the one in navigation state, so a price changed by
 * sync shows without a reload.
 */
export default function ProductDetails() {
  const { id } = useParams();
  const location = useLocation();
  const fromState = (location.state as { product?: Product } | null)?.product ?? null;
  const wantedId =
    id !== undefined ? (/^\d{1,15}$/.test(id) ? Number(id) : Number.NaN) : (fromState?.productID ?? null);
  const stored = useProduct(Number.isFinite(wantedId) ? wantedId : null);
  const synced = useLastSynced();

  if (id === undefined && !fromState) return <Navigate to="/" replace />;
  if (id !== undefined && !Number.isFinite(wantedId)) return <Missing />;
  const product = stored ?? (fromState && fromState.productID === wantedId ? fromState : null);
  if (product) return <Details key={product.productID} product={product} />;
  // Still reading the store, or the catalogue has not arrived yet on a first visit: show nothing rather than "missing".
  if (stored === undefined || synced === undefined) return null;
  if (synced === null) return <p className="page empty">{storefrontMessages.productNotOnDevice}</p>;
  return <Missing />;
}

function Missing() {
  useTitle(messages.productNotFound);
  return (
    <div className="page">
      <h1>{messages.productNotFound}</h1>
    </div>
  );
}

function Details({ product }: { product: Product }) {
  const media = useMemo(() => mediaOf(product), [product]);
  const [current, setCurrent] = useState(0);
  const options = useMemo(() => sizeOptions(product), [product]);
  // Until the shopper picks, the picker follows the catalogue: a price the shop changes while the
  // page is open can move which option is the product's own size.
  const [picked, setVariationId] = useState<string | null>(null);
  const variationId = picked ?? defaultSizeKey(product);
  const variation: Variation | null =
    product.variations.find((v) => String(v.variationID) === variationId) ?? null;
  const price = unitPrice(product, variation);
  const size = chosenSize(product, variation);
  const { add, popup, closePopup } = useAddWithPopup();
  const [gift, setGift] = useState<CakeGiftState>(emptyCakeGift);
  const takesGift = product.takesMessage || product.photoCake;
  const selectId = useId();
  // Counts refused tries: each one moves focus to the field that says what is missing.
  const [refused, setRefused] = useState(0);
  const description = useMemo(() => DOMPurify.sanitize(product.description), [product.description]);
  const shown = media[current] ?? media[0];
  useTitle(product.title);

  return (
    <div className="page details">
      <div className="details__top">
        <div className="gallery">
          <div className="gallery__main">
            {shown?.video ? (
              // biome-ignore lint/a11y/useMediaCaption: shop videos are silent product clips without speech.
              <video src={shown.path} controls playsInline preload="metadata" className="gallery__media" />
            ) : (
              <ProductImage
                className="gallery__media"
                src={shown?.path}
                srcSet={shown?.srcSet}
                fallback={shown?.thumb}
                sizes={PRODUCT_IMAGE_SIZES}
                alt={product.title}
                width={640}
                height={640}
                priority
              />
            )}
          </div>
          {media.length > 1 && (
            <ul className="gallery__thumbs" aria-label="Product media">
              {media.map((m, i) => (
                <li key={m.path}>
                  <button
                    type="button"
                    className="gallery__thumb"
                    aria-pressed={i === current}
                    aria-label={`${m.video ? 'Video' : 'Image'} ${i + 1} of ${media.length}`}
                    onClick={() => setCurrent(i)}
                  >
                    {m.video ? (
                      <span className="gallery__video-mark" aria-hidden="true">
                        ▶
                      </span>
                    ) : (
                      <ProductImage src={m.thumb} alt="" width={64} height={64} />
                    )}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>

        <div className="details__info">
          <p className="details__price">
            <strong>{formatRupees(price)}</strong> <span className="muted">MRP incl. of all taxes</span>
          </p>
          <h1 className="details__title">{product.title}</h1>
          {options.length > 0 && (
            <div className="field">
              <label htmlFor={selectId}>Choose an option</label>
              <select id={selectId} value={variationId} onChange={(e) => setVariationId(e.target.value)}>
                {options.map((o) => (
                  <option key={o.key} value={o.key}>
                    {o.label}
                  </option>
                ))}
              </select>
            </div>
          )}
          <ProductDelivery photoCake={product.photoCake} />
          {takesGift ? (
            <CakeGift product={product} value={gift} onChange={setGift} focusProblem={refused} />
          ) : null}
          <ProductBenefits product={product} />
          <button
            type="button"
            className="btn btn--primary btn--block"
            onClick={() => {
              if (!takesGift) {
                void add(product, variation);
                return;
              }
              const problem = cakeGiftProblem(product, gift);
              setGift((g) => ({ ...g, tried: true }));
              // Said at the field itself (not in the page's message region), so it goes as soon as it is fixed.
              if (problem) {
                setRefused((n) => n + 1);
                return;
              }
              void add(product, variation, {
                cakeMessage: product.takesMessage ? gift.message : null,
                photo: product.photoCake ? gift.photo : null,
              });
            }}
          >
            Add to Cart
          </button>
          <ShareProduct product={product} priceText={formatRupees(price)} />
          <Offers />
        </div>
      </div>

      <section className="details__about" aria-labelledby="about-product">
        <h2 id="about-product">Description</h2>
        {/* Sanitized here as well as on the server: the device may hold rows synced before a server fix. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML went through DOMPurify just above. */}
        <div className="prose" dangerouslySetInnerHTML={{ __html: description }} />
        {product.labelHeading && <h3>{product.labelHeading}</h3>}
        {product.labelDescription && <p>{product.labelDescription}</p>}
        {size && (
          <p>
            <strong>{size.name}:</strong> {size.value}
          </p>
        )}
        <h3>Shipping details</h3>
        <ShippingDetails product={product} />
      </section>

      {RELATED_LISTS.map((c) => (
        <Related
          key={c.categoryID}
          categoryID={c.categoryID}
          title={c.categoryName}
          exclude={product.productID}
        />
      ))}
      {popup && <AddedPopup key={popup.id} text={popup.text} onClose={closePopup} />}
    </div>
  );
}

/**
 * The offer the owner advertises (Settings → Shop settings), worded from the coupon itself, as
 * the device last synced it; nothing when the shop advertises none or the coupon has ended.
 */
function Offers() {
  const offer = liveOffer(useShopSettings()?.offer, Date.now());
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  if (!offer) return null;

  const copy = async () => {
    if (!(await copyText(offer.code))) return;
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  };

  return (
    <details className="offers">
      <summary>Offers</summary>
      <div className="offers__body">
        <p>
          <strong>{offerMessages.headline}:</strong> {offerTitle(offer)}
        </p>
        <p>
          Use code <code className="offers__code">{offer.code}</code>{' '}
          <button type="button" className="btn btn--small" onClick={() => void copy()}>
            {copied ? messages.copied : 'Copy code'}
          </button>
        </p>
        <span role="status" className="visually-hidden">
          {copied ? messages.copied : ''}
        </span>
      </div>
    </details>
  );
}

function Related({ categoryID, title, exclude }: { categoryID: number; title: string; exclude: number }) {
  const all = useProductsInCategoryId(categoryID);
  const others = useMemo(() => all?.filter((p) => p.productID !== exclude), [all, exclude]);
  const products = useStableShuffle(others, RELATED_LIST_SIZE);
  if (!products?.length) return null;
  const headingId = `related-${categoryID}`;
  return (
    <section className="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <ProductGrid products={products} label={title} belowFold />
    </section>
  );
}
