/** The product form's pictures: previews before upload, reorder (the first is the main picture), remove. */
import { useRef } from 'react';
import { adminMessages } from '../../domain/admin-messages.js';
import { LIMITS } from '../../domain/catalogue.js';
import { moveItem } from '../../domain/product-form.js';
import { useNotify } from '../hooks/useAlerts.js';

/** A picture the product has (`kept`, by its address) or one chosen on this device (`new`, shown from an object URL). */
export type ImageItem =
  | { kind: 'kept'; src: string; thumb: string }
  | { kind: 'new'; file: File; url: string };

export function ImageEditor({
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
