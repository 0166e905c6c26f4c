import { useState } from 'react';
import { PLACEHOLDER_IMAGE } from '../../domain/catalogue-media.js';

/**
 * A product image that never shows a broken icon. When the image fails
 * (offline and not on the device, or gone from the server) it tries
 * `fallback` (the card variant, which the device keeps for every product),
 * then draws the spec's placeholder inline, so the last step needs no network.
 */
export function ProductImage({
  src,
  srcSet,
  sizes,
  fallback,
  alt,
  className,
  width = 320,
  height = 320,
  eager = false,
  priority = false,
}: {
  src: string | null | undefined;
  srcSet?: string | undefined;
  sizes?: string;
  fallback?: string | null | undefined;
  alt: string;
  className?: string;
  width?: number;
  height?: number;
  eager?: boolean;
  priority?: boolean;
}) {
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const usable = (x: string | null | undefined): x is string =>
    Boolean(x) && x !== PLACEHOLDER_IMAGE && !failed.has(x as string);
  const current = usable(src) ? src : usable(fallback) ? fallback : null;
  if (!current) return <Placeholder alt={alt} className={className} />;
  // The srcset belongs to the first source only; the fallback is one known file.
  const set = current === src ? srcSet : undefined;
  return (
    <img
      key={current}
      className={className}
      src={current}
      srcSet={set || undefined}
      sizes={set ? sizes : undefined}
      alt={alt}
      width={width}
      height={height}
      loading={eager || priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      onError={() => setFailed((f) => new Set(f).add(current))}
    />
  );
}

function Placeholder({ alt, className }: { alt: string; className?: string | undefined }) {
  return (
    <svg
      className={`placeholder ${className ?? ''}`}
      viewBox="0 0 320 320"
      role="img"
      aria-label={alt ? `${alt} (no image)` : 'No image'}
      data-placeholder="true"
    >
      <rect width="320" height="320" fill="#f6ece6" />
      <path d="M110 200 l40 -50 30 35 20 -22 40 37z" fill="#d9b8a6" />
      <circle cx="200" cy="125" r="16" fill="#d9b8a6" />
    </svg>
  );
}
