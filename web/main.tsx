/**
 * The entry: the shop, with the PWA's status strip in the place the app gives it.
 * The first render is a transition so React renders it in slices and yields to the
 * browser between them: on a slow phone the whole tree in one go is a long task that
 * blocks taps and scrolling, while the HTML's header already stands in for it.
 */
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { App } from './app/App.js';
import { routerOptions, routes } from './app/routes.js';
import { PwaStatus } from './pwa/PwaStatus.js';
import { startPwa } from './pwa/start.js';

startPwa();
// A task of its own: evaluating the libraries' modules and this start in one task would be the
// longest task of a first visit on a slow phone, and the browser could not paint or answer a tap
// until both were done. The catalogue's first page is already on its way (startPwa, the HTML).
setTimeout(() => {
  // Created first: the router starts loading the current route's lazy screen at once (a shared link to
  // a product, a search), in parallel with React's start.
  const router = createBrowserRouter(routes, routerOptions());
  const root = document.getElementById('root');
  if (!root) return;
  // React's start in a task of its own too: the router's start (the screen's lazy code asked for,
  // Vite's links for it added) and React's first render were one task of about 190 ms at 4x CPU on
  // a repeat visit to checkout, its longest (the storefront bench's trace part).
  setTimeout(() => {
    const reactRoot = createRoot(root);
    startTransition(() => {
      reactRoot.render(
        <StrictMode>
          <App router={router} status={<PwaStatus />} />
        </StrictMode>,
      );
    });
  });
});
