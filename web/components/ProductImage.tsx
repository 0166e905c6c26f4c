import { useState } from 'react';
import { PLACEHOLDER_IMAGE } from '../../domain/catalogue.js';

/**
 * A product image that never shows a broken icon: with no source, or when the
 * load fails (offline and not stored, or gone from the server), it draws the
 * spec's placeholder inline, so the placeholder itself needs no network.
 */
export function ProductImage({
  src,
  srcSet,
  sizes,
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
  alt: string;
  className?: string;
  width?: number;
  height?: number;
  eager?: boolean;
  priority?: boolean;
}) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const usable = src && src !== PLACEHOLDER_IMAGE && failedSrc !== src ? src : null;
  if (!usable) return <Placeholder alt={alt} className={className} />;
  return (
    <img
      className={className}
      src={usable}
      srcSet={srcSet || undefined}
      sizes={srcSet ? sizes : undefined}
      alt={alt}
      width={width}
      height={height}
      loading={eager || priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      onError={() => setFailedSrc(usable)}
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
