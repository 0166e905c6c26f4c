import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Banner } from '../../domain/shop-nav.js';
import { categoryUrl } from './category-url.js';

const SLIDE_MS = 5000;

function prefersReducedMotion(): boolean {
  return globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * The home page's four banners, drawn with CSS (no image downloads, so it
 * costs nothing offline or on the first load). The artwork is decoration, so
 * it lives in app.css as SVG backgrounds rather than in the first screen's
 * JavaScript. Following the WAI-ARIA
 * carousel pattern: it rotates by itself only when the shopper has not asked
 * for reduced motion, stops while hovered or focused, and has a visible
 * pause/play button and previous/next controls.
 */
export function BannerCarousel({ banners }: { banners: readonly Banner[] }) {
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(() => !prefersReducedMotion());
  const [held, setHeld] = useState(false);
  const count = banners.length;
  // The shop's categories can take a banner away while it shows: the next one stands in.
  const shown = index % count;

  useEffect(() => {
    if (!playing || held) return;
    const t = setInterval(() => setIndex((i) => (i + 1) % count), SLIDE_MS);
    return () => clearInterval(t);
  }, [playing, held, count]);

  return (
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label="Offers"
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <div className="carousel__controls">
        <button
          type="button"
          className="carousel__btn"
          onClick={() => setPlaying((p) => !p)}
          aria-label={playing ? 'Pause the banners' : 'Play the banners'}
        >
          {playing ? '❚❚' : '▶'}
        </button>
        <button
          type="button"
          className="carousel__btn"
          onClick={() => setIndex((i) => (i - 1 + count) % count)}
          aria-label="Previous banner"
        >
          ‹
        </button>
        <button
          type="button"
          className="carousel__btn"
          onClick={() => setIndex((i) => (i + 1) % count)}
          aria-label="Next banner"
        >
          ›
        </button>
      </div>
      {/* Announce slide changes only when the shopper moves them, not while auto-rotating. */}
      <div className="carousel__track" aria-live={playing && !held ? 'off' : 'polite'}>
        {banners.map((b, i) => (
          // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern names each slide a group; a fieldset is for form controls.
          <div
            key={b.title}
            className={`banner banner--${i + 1}`}
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${count}`}
            hidden={i !== shown}
          >
            <div className="banner__text">
              <h2>{b.title}</h2>
              <p>{b.text}</p>
              <Link to={categoryUrl(b.category.categoryName)} className="btn btn--light">
                {b.cta}
              </Link>
            </div>
            <span className="banner__art" aria-hidden="true" />
          </div>
        ))}
      </div>
      <div className="carousel__dots">
        {banners.map((b, i) => (
          <button
            key={b.title}
            type="button"
            className="carousel__dot"
            aria-label={`Show banner ${i + 1}: ${b.title}`}
            aria-current={i === shown ? 'true' : undefined}
            onClick={() => setIndex(i)}
          />
        ))}
      </div>
    </section>
  );
}
