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

/** CLDR's short months for en-IN ("Sept", as the phone's own en-IN clock writes it). */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];

/**
 * "9:07 am" today, "20 Nov, 9:07 am" another day, in the device's time: what `toLocaleString('en-IN',
 * {hour: 'numeric', minute: '2-digit'})` writes (tests/web/sw-pwa-status.test.ts compares), by hand. The
 * status shows it as a first visit's catalogue arrives, and ICU's first formatter was the longest
 * task of home's first visit on a phone (about 110 ms at 4x CPU, the storefront bench's trace).
 */
export function formatSynced(at: number, now = Date.now()): string {
  const d = new Date(at);
  const sameDay = d.toDateString() === new Date(now).toDateString();
  const hours = d.getHours();
  const time = `${hours % 12 || 12}:${String(d.getMinutes()).padStart(2, '0')} ${hours < 12 ? 'am' : 'pm'}`;
  return sameDay ? time : `${d.getDate()} ${MONTHS[d.getMonth()]}, ${time}`;
}
