import { lazy, Suspense } from 'react';
import { pwaMessages as t } from '../../domain/pwa-messages.js';
import { useLastSynced } from '../hooks/useCatalogue.js';
import { usePwaState } from './pwa-state.js';
import './pwa.css';

// The update and install offers come long after a first visit's first screen (a new build, the browser's
// install criteria), so their code is not in the first bundle; the worker keeps it for offline.
const PwaCards = lazy(() => import('./PwaCards.js'));

/**
 * The app's status strip: offline notice, when the catalogue was last
 * synced, the "new version" prompt and the install offer. Placed by the app
 * shell (`<App status={<PwaStatus />} />`). Texts are announced politely; the
 * update prompt never reloads on its own.
 */
export function PwaStatus() {
  const { offline, updateReady, canInstall, showIosInstallHint } = usePwaState();
  const synced = useLastSynced();

  return (
    <div className="pwa-status">
      <div role="status" aria-live="polite" className="pwa-line">
        {offline ? <span className="pwa-offline">{t.offline}</span> : null}
        {synced ? (
          <span className="pwa-synced">
            {t.catalogueSynced} <time dateTime={new Date(synced).toISOString()}>{formatSynced(synced)}</time>
          </span>
        ) : null}
      </div>

      {updateReady || canInstall || showIosInstallHint ? (
        <Suspense fallback={null}>
          <PwaCards
            updateReady={updateReady}
            canInstall={canInstall}
            showIosInstallHint={showIosInstallHint}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

/**
 * A formatter per call, none made at start-up: building an ICU formatter is costly (see
 * formatRupees), and the status shows this time only now and then.
 */
export function formatSynced(at: number, now = Date.now()): string {
  const sameDay = new Date(at).toDateString() === new Date(now).toDateString();
  return new Date(at).toLocaleString('en-IN', {
    ...(sameDay ? {} : { day: 'numeric', month: 'short' }),
    hour: 'numeric',
    minute: '2-digit',
  });
}
