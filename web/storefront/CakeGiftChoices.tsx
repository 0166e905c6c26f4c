/**
 * The product page's part of a gift: a cake's message, and a photo cake's photo shown
 * on the cake before it goes to the cart.
 */
import { useEffect, useRef } from 'react';
import type { ChosenPhoto } from '../../domain/cart.js';
import type { Product } from '../../domain/catalogue.js';
import { cakeMessageProblem, giftMessages } from '../../domain/gifts.js';
import { CakeMessageField, CakePreview, PhotoPicker, useObjectUrl } from '../components/CakeGift.js';
import { newKey } from '../hooks/new-key.js';

export interface CakeGiftState {
  message: string;
  photo: ChosenPhoto | null;
  photoError: string | null;
  /** Add to Cart was tried: the rules' messages show from then on. */
  tried: boolean;
}

export const emptyCakeGift: CakeGiftState = { message: '', photo: null, photoError: null, tried: false };

/** What stops this cake from going to the cart, in the words the server would use; null when nothing. */
export function cakeGiftProblem(
  product: Pick<Product, 'title' | 'takesMessage' | 'photoCake'>,
  gift: CakeGiftState,
) {
  if (product.takesMessage) {
    const problem = cakeMessageProblem(gift.message.trim());
    if (problem) return problem;
  }
  if (product.photoCake && !gift.photo) return gift.photoError ?? giftMessages.photoMissing(product.title);
  return null;
}

export function CakeGift({
  product,
  value,
  onChange,
  focusProblem = 0,
}: {
  product: Product;
  value: CakeGiftState;
  onChange(next: CakeGiftState): void;
  /** Changes with each refused Add to Cart: focus goes to the first field whose error shows. */
  focusProblem?: number;
}) {
  const url = useObjectUrl(value.photo?.blob);
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focusProblem) box.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusProblem]);
  const photoMissing = product.photoCake && value.tried && !value.photo && !value.photoError;
  return (
    <section className="cake-gift" aria-labelledby="cake-gift-title" ref={box}>
      <h2 id="cake-gift-title">{product.photoCake ? 'Your photo cake' : 'Make it theirs'}</h2>
      {product.takesMessage ? (
        <CakeMessageField
          value={value.message}
          showError={value.tried}
          onChange={(message) => onChange({ ...value, message })}
        />
      ) : null}
      {product.photoCake ? (
        <>
          <PhotoPicker
            error={value.photoError ?? (photoMissing ? giftMessages.photoMissing(product.title) : null)}
            onPick={(picked, problem) =>
              onChange({
                ...value,
                // A key per chosen photo, made now: the upload's Idempotency-Key, whenever it happens.
                photo: picked ? { key: newKey(), blob: picked.blob } : null,
                photoError: problem,
              })
            }
          />
          <CakePreview
            url={url}
            message={product.takesMessage ? value.message.trim() : ''}
            label={url ? `Preview: your photo on the ${product.title}` : `Preview of the ${product.title}`}
          />
        </>
      ) : null}
    </section>
  );
}
