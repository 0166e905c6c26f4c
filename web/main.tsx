import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { PwaStatus } from './pwa/PwaStatus.js';
import { startPwa } from './pwa/start.js';

/** The entry: the shop, with the PWA's status strip in the place the app gives it. */
const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <App status={<PwaStatus />} />
    </StrictMode>,
  );
startPwa();
