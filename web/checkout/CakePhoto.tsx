/**
 * A photo cake's photo shown back to the shopper who uploaded it (order success, My Orders, the
 * order page): from the phone while the order still holds it, else from the server with the
 * shopper's token (the photo is private: an <img src> could not carry the token, so the screen
 * makes an object URL). Offline, or when the server no longer has it, the line simply shows no
 * photo: the words "with your photo" stay.
 */
import { useEffect, useState } from 'react';
import { storedToken } from '../../sw/session.js';
import { createClient, fillPath } from '../api/client.js';

export interface LinePhoto {
  /** The photo still on the phone (an order not yet placed keeps it). */
  blob: Blob | null;
  /** The server's id once uploaded. */
  photoID: string | null;
}

async function photoBlob(photo: LinePhoto, signal: AbortSignal): Promise<Blob | null> {
  if (photo.blob) return photo.blob;
  if (!photo.photoID || !navigator.onLine) return null;
  // Loaded here, not imported: a static import would list the contract's chunk among the
  // dependencies of every screen showing order lines, in the first screen's entry (its budget).
  const { giftsApi } = await import('../../domain/gifts.contract.js');
  const token = storedToken();
  const res = await createClient()(fillPath(giftsApi.photo.path, { photoID: photo.photoID }), {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal,
  });
  return res.ok ? res.blob() : null;
}

export function CakePhoto({ photo, name }: { photo: LinePhoto; name: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const { blob, photoID } = photo;
  useEffect(() => {
    const abort = new AbortController();
    let made: string | null = null;
    photoBlob({ blob, photoID }, abort.signal)
      .then((b) => {
        if (!b || abort.signal.aborted) return;
        made = URL.createObjectURL(b);
        setUrl(made);
      })
      .catch(() => undefined);
    return () => {
      abort.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [blob, photoID]);
  if (!url) return null;
  return (
    <img
      src={url}
      alt={`What you chose to print on ${name}`}
      className="order-item__photo"
      width={96}
      height={96}
      data-testid="shopper-cake-photo"
    />
  );
}
