import { useEffect, useRef, useState } from 'react';
import type { Product } from '../../domain/catalogue.js';
import { messages } from '../../domain/messages.js';
import { productPath, shareText } from '../../domain/page-head.js';
import { COPIED_MS } from '../../domain/product-page.js';

/**
 * Share on the product page. In India a cake is chosen together: the link goes
 * to a family group. Where the browser has the Web Share API (phones), one
 * button opens the phone's share sheet with the product's name, a line with
 * its price and its own URL; elsewhere a WhatsApp link (wa.me, which opens the
 * app or WhatsApp Web) and Copy link. Nothing here needs the network, so it
 * works offline: the message waits in the sharing app until it can be sent.
 */
export function ShareProduct({ product, priceText }: { product: Product; priceText: string }) {
  const url = `${location.origin}${productPath(product.productID)}`;
  const text = shareText(product, priceText);
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  if (typeof navigator.share === 'function') {
    const share = async () => {
      try {
        await navigator.share({ title: product.title, text, url });
      } catch {
        // Closed without choosing an app (AbortError), or refused: nothing to tell the shopper.
      }
    };
    return (
      <button type="button" className="btn btn--block share" onClick={() => void share()}>
        Share
      </button>
    );
  }

  const copy = async () => {
    if (!(await copyText(url))) return;
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  };
  return (
    <p className="share">
      <a
        className="btn btn--small"
        href={`https://wa.me/?text=${encodeURIComponent(`${text}\n${url}`)}`}
        target="_blank"
        rel="noopener noreferrer"
      >
        Share on WhatsApp
      </a>{' '}
      <button type="button" className="btn btn--small" onClick={() => void copy()}>
        {copied ? messages.copied : 'Copy link'}
      </button>
      <span role="status" className="visually-hidden">
        {copied ? messages.copied : ''}
      </span>
    </p>
  );
}

/** The Clipboard API where the browser allows it, else the older selection copy. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied (insecure origin or no permission): try the fallback below.
  }
  try {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = typeof document.execCommand === 'function' && document.execCommand('copy');
    area.remove();
    return ok;
  } catch {
    return false;
  }
}
