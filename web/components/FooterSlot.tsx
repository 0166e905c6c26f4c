import { type ComponentType, lazy, Suspense, useEffect, useRef, useState } from 'react';

// Not needed for a first screen, below the fold on every page with products: its code loads as the
// shopper nears it. Code that cannot load (a first visit gone offline before the worker kept it)
// leaves the slot empty rather than failing the layout around the screen.
const Footer = lazy<ComponentType>(() =>
  import('./Footer.js').then(
    (m) => ({ default: m.Footer }),
    () => ({ default: () => null }),
  ),
);

/** Where the footer goes: the footer itself once the slot is within a screen of the viewport. */
export function FooterSlot() {
  const slot = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = slot.current;
    if (near || !el) return;
    const watch = new IntersectionObserver(
      (entries) => entries.some((e) => e.isIntersecting) && setNear(true),
      {
        rootMargin: '100% 0px',
      },
    );
    watch.observe(el);
    return () => watch.disconnect();
  }, [near]);
  if (!near) return <div ref={slot} className="footer-slot" />;
  return (
    <Suspense fallback={<div className="footer-slot" />}>
      <Footer />
    </Suspense>
  );
}
