import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

/** The shell's entry: the storefront screens mount here. */
function Shell() {
  return (
    <main>
      <h1>Bakery &amp; Blooms</h1>
      <p>Eggless cakes, fresh flowers and gifts.</p>
    </main>
  );
}

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <Shell />
    </StrictMode>,
  );
