import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PwaStatus } from './pwa/PwaStatus.js';
import { startPwa } from './pwa/start.js';

/** The shell's entry: the storefront screens mount here (replaced by web/app/App.tsx once it exists). */
function Shell() {
  return (
    <main>
      <PwaStatus />
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
startPwa();
