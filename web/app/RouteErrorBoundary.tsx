import { useEffect } from 'react';
import { useRouteError } from 'react-router-dom';
import { shellMessages } from '../../domain/shell-messages.js';
import { usePwaState } from '../pwa/pwa-state.js';

/**
 * A layout route's `errorElement` (web/app/routes.tsx), so a failing screen never leaves a blank
 * page. A screen whose code is not on the device (a first visit that went offline before the
 * worker saved it: a `lazy` route's import, or a `React.lazy` inside a screen, failed) says so and
 * offers to try again once back online; any other failure says something went wrong and offers a
 * reload. Both reload the page: a failed import stays failed in the browser's module map, so only a
 * fresh page asks for the chunk again. The router clears the failure when the shopper goes
 * elsewhere.
 */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    console.error('A screen failed', error);
  }, [error]);
  return <ScreenFailed chunk={isChunkLoadError(error)} />;
}

/** Chromium, Firefox and Safari word a failed dynamic import differently; Vite's preload adds its own. */
export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /dynamically imported module|Importing a module script failed|Failed to fetch|error loading dynamically|Unable to preload CSS|ChunkLoadError/i.test(
    text,
  );
}

function ScreenFailed({ chunk }: { chunk: boolean }) {
  // The page's own online state (web/pwa/start.ts follows the browser's events).
  const online = !usePwaState().offline;
  const reload = () => location.reload();
  if (chunk && !online) {
    return (
      <div className="page screen-failed" role="alert">
        <h1>{shellMessages.screenNotOnDevice}</h1>
        <p>{shellMessages.retryWhenOnline}</p>
        <p>
          <button type="button" className="btn btn--primary" disabled>
            {shellMessages.tryAgain}
          </button>{' '}
          <a href="/home">{shellMessages.home}</a>
        </p>
      </div>
    );
  }
  return (
    <div className="page screen-failed" role="alert">
      <h1>{chunk ? shellMessages.screenLoadFailed : shellMessages.screenFailed}</h1>
      <p>
        <button type="button" className="btn btn--primary" onClick={reload}>
          {chunk ? shellMessages.tryAgain : shellMessages.reload}
        </button>{' '}
        <a href="/home">{shellMessages.home}</a>
      </p>
    </div>
  );
}
