import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../sw/db.js';
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
  const synced = useLiveQuery(async () => {
    const row = await db.meta.get('lastSyncedAt');
    return typeof row?.value === 'number' ? row.value : null;
  });

  return (
    <div className="pwa-status">
      <div role="status" aria-live="polite" className="pwa-line">
        {offline ? (
          <span className="pwa-offline">You are offline. Showing the shop saved on this device.</span>
        ) : null}
        {synced ? (
          <span className="pwa-synced">
            Catalogue synced <time dateTime={new Date(synced).toISOString()}>{formatSynced(synced)}</time>
          </span>
        ) : null}
      </div>

      {updateReady ? (
        <section className="pwa-card" aria-labelledby="pwa-update-title">
          <p id="pwa-update-title">A new version is ready</p>
          <div className="pwa-actions">
            <button type="button" className="pwa-primary" onClick={acceptUpdate}>
              Reload
            </button>
            <button type="button" onClick={dismissUpdate}>
              Later
            </button>
          </div>
        </section>
      ) : null}

      {canInstall ? (
        <section className="pwa-card" aria-labelledby="pwa-install-title">
          <p id="pwa-install-title">Install Bakery &amp; Blooms for quick access, even offline.</p>
          <div className="pwa-actions">
            <button type="button" className="pwa-primary" onClick={() => void install()}>
              Install app
            </button>
            <button type="button" onClick={dismissInstall}>
              Not now
            </button>
          </div>
        </section>
      ) : showIosInstallHint ? (
        <section className="pwa-card" aria-labelledby="pwa-ios-title">
          <p id="pwa-ios-title">
            To install this app, tap the Share button, then <strong>Add to Home Screen</strong>.
          </p>
          <div className="pwa-actions">
            <button type="button" onClick={dismissInstall}>
              Got it
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
