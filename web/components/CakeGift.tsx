/**
 * The cake's gift controls, shared by the product page and the cart page, both lazy:
 * the message with its counter, the photo picker, and the photo drawn on the cake. Nothing here
 * is on the first screen.
 */
import { useEffect, useId, useState } from 'react';
import {
  CAKE_MESSAGE_MAX,
  cakeMessageProblem,
  countCharacters,
  giftMessages,
  PHOTO_MAX_BYTES,
  PHOTO_TYPES,
} from '../../domain/gifts.js';
import { useShopSettings } from '../hooks/useDelivery.js';

export const CAKE_MESSAGE_LABEL = 'Message on the cake';

/** "12/40", counted as a person counts (a letter with its vowel sign, an emoji with its joiners: one). */
export function messageCount(text: string): string {
  return `${countCharacters(text.trim())}/${CAKE_MESSAGE_MAX}`;
}

export function CakeMessageField({
  value,
  onChange,
  showError,
  label = CAKE_MESSAGE_LABEL,
}: {
  value: string;
  onChange(value: string): void;
  /** Show the rule's message (after a try to add or save); the counter always shows. */
  showError: boolean;
  label?: string;
}) {
  const id = useId();
  const problem = cakeMessageProblem(value.trim());
  const over = countCharacters(value.trim()) > CAKE_MESSAGE_MAX;
  const error = problem && (showError || over) ? problem : null;
  return (
    <div className="field cake-message">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        autoComplete="off"
        enterKeyHint="done"
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-count${error ? ` ${id}-error` : ''}`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p className={`cake-message__count${over ? ' cake-message__count--over' : ''}`} id={`${id}-count`}>
        <span className="visually-hidden">Characters used: </span>
        {messageCount(value)}
      </p>
      {error ? (
        <p className="cake-gift__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Null when the file can be a cake's photo; otherwise what to tell the shopper (the server's own rules). */
export function photoFileProblem(file: Blob): string | null {
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type)) return giftMessages.photoType;
  if (file.size > PHOTO_MAX_BYTES) return giftMessages.photoTooLarge;
  return null;
}

/** An object URL for a Blob while the component shows it, revoked after. */
export function useObjectUrl(blob: Blob | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}

/** Characters of the message that fit across the cake's lower edge at the preview's size. */
const PREVIEW_LINE = 20;

/**
 * A round cake seen from above with the photo printed on it, inside a ring of piping, as the
 * shop prints it: the shopper sees what will be cut off before adding it to the cart. An SVG
 * (no style attributes: the page's Content-Security-Policy), the photo by its blob: URL.
 */
export function CakePreview({
  url,
  message,
  label,
}: {
  url: string | null;
  message?: string;
  label: string;
}) {
  const clip = `cake-${useId().replace(/[^\w-]/g, '')}`;
  const dots = Array.from({ length: 24 }, (_, i) => {
    const a = (i / 24) * 2 * Math.PI;
    return { x: 100 + 86 * Math.cos(a), y: 100 + 86 * Math.sin(a) };
  });
  return (
    <svg className="cake-preview" viewBox="0 0 200 200" role="img" aria-label={label}>
      <defs>
        <clipPath id={clip}>
          <circle cx="100" cy="100" r="76" />
        </clipPath>
      </defs>
      <circle cx="100" cy="100" r="99" className="cake-preview__plate" />
      <circle cx="100" cy="100" r="93" className="cake-preview__cake" />
      {url ? (
        <image
          href={url}
          x="24"
          y="24"
          width="152"
          height="152"
          preserveAspectRatio="xMidYMid slice"
          clipPath={`url(#${clip})`}
        />
      ) : (
        <text x="100" y="104" textAnchor="middle" className="cake-preview__hint">
          Your photo here
        </text>
      )}
      {dots.map((d) => (
        <circle key={`${d.x}-${d.y}`} cx={d.x} cy={d.y} r="5" className="cake-preview__piping" />
      ))}
      {message ? (
        <text
          x="100"
          y="166"
          textAnchor="middle"
          className="cake-preview__message"
          // A long message is drawn narrower rather than past the cake's edge (about 20 characters fit).
          {...(countCharacters(message) > PREVIEW_LINE
            ? { textLength: 130, lengthAdjust: 'spacingAndGlyphs' }
            : {})}
        >
          {message}
        </text>
      ) : null}
    </svg>
  );
}

export interface PickedPhoto {
  blob: Blob;
}

/** The photo picker of a photo cake: JPEG, PNG or WebP from the phone, checked before it is kept. */
export function PhotoPicker({
  onPick,
  error,
}: {
  onPick(photo: PickedPhoto | null, problem: string | null): void;
  error: string | null;
}) {
  const id = useId();
  // The shop's notice as the owner set it (Settings), the default until the device has it.
  const noticeDays = useShopSettings()?.photoCakeNoticeDays;
  return (
    <div className="field cake-photo">
      <label htmlFor={id}>Photo for the cake</label>
      <input
        id={id}
        type="file"
        accept={PHOTO_TYPES.join(',')}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        aria-invalid={error ? true : undefined}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (!file) return;
          const problem = photoFileProblem(file);
          // A copy of the bytes, not the File: IndexedDB keeps it after the picker's file is gone.
          onPick(problem ? null : { blob: new Blob([file], { type: file.type }) }, problem);
        }}
      />
      <p className="cake-gift__hint" id={`${id}-hint`}>
        JPEG, PNG or WebP, up to {PHOTO_MAX_BYTES / 1024 / 1024} MB.{' '}
        {giftMessages.photoCakeNotice(noticeDays)}
      </p>
      {error ? (
        <p className="cake-gift__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A cart line's gift: "On the cake: …" with Edit (the message is editable in the cart), and the
 * photo on its cake. Saving a message moves the line to its new identity (`setCakeMessage`).
 */
export function CartLineGift({
  message,
  takesMessage,
  photo,
  compact,
  name,
  onSave,
}: {
  message: string | null;
  takesMessage: boolean;
  photo: Blob | null;
  compact: boolean;
  name: string;
  onSave(message: string | null): Promise<void>;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const url = useObjectUrl(photo);
  if (!message && !takesMessage && !photo) return null;
  const save = async () => {
    if (editing === null) return;
    setTried(true);
    if (cakeMessageProblem(editing.trim())) return;
    await onSave(editing.trim() || null);
    setEditing(null);
    setTried(false);
  };
  return (
    <div className="line__gifts">
      {photo && url ? (
        <img
          className="line__photo"
          src={url}
          alt={`What will be printed on ${name}`}
          width={64}
          height={64}
        />
      ) : null}
      {editing === null ? (
        <p className="line__gift">
          {message ? giftMessages.onTheCake(message) : takesMessage ? 'No message on the cake.' : null}
          {takesMessage && !compact ? (
            <>
              {' '}
              <button
                type="button"
                className="btn btn--link"
                aria-label={message ? `Edit the message on ${name}` : `Add a message on ${name}`}
                onClick={() => setEditing(message ?? '')}
              >
                {message ? 'Edit' : 'Add a message'}
              </button>
            </>
          ) : null}
        </p>
      ) : (
        <div className="line__edit">
          <CakeMessageField value={editing} onChange={setEditing} showError={tried} />
          <div className="line__edit-actions">
            <button type="button" className="btn btn--primary btn--small" onClick={() => void save()}>
              Save message
            </button>
            <button type="button" className="btn btn--outline btn--small" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
