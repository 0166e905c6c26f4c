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

/** How long a first visit waits for its lazy screen's code before showing the layout without it. */
const SCREEN_CODE_WAIT_MS = 1000;

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
  const start = () => {
    const reactRoot = createRoot(root);
    startTransition(() => {
      reactRoot.render(
        <StrictMode>
          <App router={router} status={<PwaStatus />} />
        </StrictMode>,
      );
    });
  };
  // A first visit to a lazy screen (a shared product link, the login a guard sent the shopper to)
  // renders once its code is here, which the HTML asked for beside this entry: rendered at once, the
  // layout and its loading state were a whole first render and layout, and the screen a second one,
  // 360 ms later at 4x CPU, its slices interleaved with the first page of the catalogue being stored
  // (the storefront bench's trace part). The HTML's header outline stands in meanwhile. A link too
  // slow to bring it soon gets the layout and its loading state, whose header works.
  if (router.state.initialized) {
    setTimeout(start);
    return;
  }
  // Whichever comes first ends the other: the timer is cleared, the subscription stopped.
  const once = () => {
    stop();
    clearTimeout(late);
    setTimeout(start);
  };
  const stop = router.subscribe((state) => {
    if (state.initialized) once();
  });
  const late = setTimeout(once, SCREEN_CODE_WAIT_MS);
});
