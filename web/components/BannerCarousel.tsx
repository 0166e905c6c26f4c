import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { BANNERS } from '../../domain/shop.js';

const SLIDE_MS = 5000;

function prefersReducedMotion(): boolean {
  return globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * The home page's four banners, drawn with CSS (no image downloads, so it
 * costs nothing offline or on the first load). Following the WAI-ARIA
 * carousel pattern: it rotates by itself only when the shopper has not asked
 * for reduced motion, stops while hovered or focused, and has a visible
 * pause/play button and previous/next controls.
 */
export function BannerCarousel() {
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(() => !prefersReducedMotion());
  const [held, setHeld] = useState(false);
  const count = BANNERS.length;

  useEffect(() => {
    if (!playing || held) return;
    const t = setInterval(() => setIndex((i) => (i + 1) % BANNERS.length), SLIDE_MS);
    return () => clearInterval(t);
  }, [playing, held]);

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
        {BANNERS.map((b, i) => (
          // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern names each slide a group; a fieldset is for form controls.
          <div
            key={b.title}
            className={`banner banner--${i + 1}`}
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${count}`}
            hidden={i !== index}
          >
            <div className="banner__text">
              <h2>{b.title}</h2>
              <p>{b.text}</p>
              <Link to={b.link} className="btn btn--light">
                {b.cta}
              </Link>
            </div>
            <svg className="banner__art" viewBox="0 0 200 160" aria-hidden="true">
              <BannerArt n={i} />
            </svg>
          </div>
        ))}
      </div>
      <div className="carousel__dots">
        {BANNERS.map((b, i) => (
          <button
            key={b.title}
            type="button"
            className="carousel__dot"
            aria-label={`Show banner ${i + 1}: ${b.title}`}
            aria-current={i === index ? 'true' : undefined}
            onClick={() => setIndex(i)}
          />
        ))}
      </div>
    </section>
  );
}

function BannerArt({ n }: { n: number }) {
  switch (n) {
    case 0: // a tiered cake
      return (
        <g>
          <rect x="50" y="90" width="100" height="45" rx="6" fill="#fff3e6" />
          <rect x="65" y="55" width="70" height="38" rx="6" fill="#ffd9c2" />
          <path d="M50 100 q12 10 25 0 t25 0 t25 0 t25 0" fill="none" stroke="#c0506b" strokeWidth="5" />
          <rect x="97" y="32" width="6" height="22" rx="2" fill="#fff" />
          <ellipse cx="100" cy="28" rx="4" ry="7" fill="#ffcc4d" />
        </g>
      );
    case 1: // a bouquet
      return (
        <g>
          <path d="M85 150 L100 95 L115 150z" fill="#7fb069" />
          {[
            [80, 70, '#ff8fab'],
            [120, 70, '#ffb3c6'],
            [100, 55, '#fb6f92'],
            [90, 90, '#ffc2d1'],
            [112, 90, '#ff8fab'],
          ].map(([x, y, c]) => (
            <circle key={`${x}-${y}`} cx={x as number} cy={y as number} r="18" fill={c as string} />
          ))}
        </g>
      );
    case 2: // a box of chocolates
      return (
        <g>
          <rect x="35" y="60" width="130" height="80" rx="8" fill="#5b3a29" />
          {[0, 1, 2].map((r) =>
            [0, 1, 2, 3].map((c) => (
              <circle key={`${r}-${c}`} cx={58 + c * 28} cy={80 + r * 22} r="9" fill="#a0522d" />
            )),
          )}
          <path
            d="M100 60 L100 30 M100 40 q-25 -25 -30 0 q25 5 30 0 q25 5 30 0 q-5 -25 -30 0"
            stroke="#ffcc4d"
            strokeWidth="5"
            fill="none"
          />
        </g>
      );
    default: // cake and flowers
      return (
        <g>
          <rect x="30" y="95" width="80" height="45" rx="6" fill="#fff3e6" />
          <path d="M30 105 q10 9 20 0 t20 0 t20 0 t20 0" fill="none" stroke="#c0506b" strokeWidth="5" />
          <path d="M140 150 L150 90 L160 150z" fill="#7fb069" />
          <circle cx="140" cy="80" r="15" fill="#ff8fab" />
          <circle cx="162" cy="76" r="15" fill="#fb6f92" />
          <circle cx="151" cy="60" r="15" fill="#ffc2d1" />
        </g>
      );
  }
}
