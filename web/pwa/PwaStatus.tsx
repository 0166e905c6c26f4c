import { pwaMessages as t } from '../../domain/pwa-messages.js';
import { useLastSynced } from '../hooks/useCatalogue.js';
import { usePwaState } from './pwa-state.js';
import { acceptUpdate, dismissInstall, dismissUpdate, install } from './start.js';
import './pwa.css';

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

      {updateReady ? (
        <section className="pwa-card" aria-labelledby="pwa-update-title">
          <p id="pwa-update-title">{t.updateReady}</p>
          <div className="pwa-actions">
            <button type="button" className="pwa-primary" onClick={acceptUpdate}>
              {t.updateReload}
            </button>
            <button type="button" onClick={dismissUpdate}>
              {t.updateLater}
            </button>
          </div>
        </section>
      ) : null}

      {canInstall ? (
        <section className="pwa-card" aria-labelledby="pwa-install-title">
          <p id="pwa-install-title">{t.installOffer}</p>
          <div className="pwa-actions">
            <button type="button" className="pwa-primary" onClick={() => void install()}>
              {t.installButton}
            </button>
            <button type="button" onClick={dismissInstall}>
              {t.installLater}
            </button>
          </div>
        </section>
      ) : showIosInstallHint ? (
        <section className="pwa-card" aria-labelledby="pwa-ios-title">
          <p id="pwa-ios-title">{t.iosInstallSteps}</p>
          <div className="pwa-actions">
            <button type="button" onClick={dismissInstall}>
              {t.iosInstallDone}
            </button>
          </div>
        </section>
      ) : null}
    </div>
  );
}

const timeOnly = new Intl.DateTimeFormat('en-IN', { hour: 'numeric', minute: '2-digit' });
const dateAndTime = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  hour: 'numeric',
  minute: '2-digit',
});

export function formatSynced(at: number, now = Date.now()): string {
  const sameDay = new Date(at).toDateString() === new Date(now).toDateString();
  return sameDay ? timeOnly.format(at) : dateAndTime.format(at);
}
