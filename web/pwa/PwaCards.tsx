import { pwaOfferMessages as t } from '../../domain/pwa-offer-messages.js';
import { dismissInstall, install } from './install.js';
import type { PwaState } from './pwa-state.js';
import { acceptUpdate, dismissUpdate } from './updates.js';

/** The status strip's offers (PwaStatus.tsx): "A new version is ready" and the install offer or iOS steps. */
export default function PwaCards({
  updateReady,
  canInstall,
  showIosInstallHint,
}: Pick<PwaState, 'updateReady' | 'canInstall' | 'showIosInstallHint'>) {
  return (
    <>
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
    </>
  );
}
