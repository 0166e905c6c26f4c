import { useLocation, useMatches, useNavigationType } from 'react-router-dom';
import { pwaOfferMessages as t } from '../../domain/pwa-offer-messages.js';
import { useCartLines } from '../hooks/useCatalogue.js';
import { shopName } from '../shop-name.js';
import { dismissInstall, install, installOfferWanted } from './install.js';
import type { PwaState } from './pwa-state.js';
import { acceptUpdate, dismissUpdate } from './updates.js';

/**
 * The status strip's offers (PwaStatus.tsx): "A new version is ready" (anywhere, the admin area
 * too), and the install offer or iOS steps, in the shop once the shopper has looked around
 * (`installOfferWanted`). The storefront's layout route is the one with the id `storefront`
 * (web/app/routes.tsx).
 */
export default function PwaCards({
  updateReady,
  canInstall: installable,
  showIosInstallHint: iosHint,
}: Pick<PwaState, 'updateReady' | 'canInstall' | 'showIosInstallHint'>) {
  // Not while the shopper pays: the card arrives whenever the browser says the app can be installed,
  // and in the strip above the form it pushed the whole checkout down under a finger about to type
  // (a layout shift of 0.6 in the storefront bench's Lighthouse part).
  const paying = /^\/checkout\/?$/i.test(useLocation().pathname);
  const inShop = useMatches().some((m) => m.id === 'storefront') && !paying;
  // A link followed within the shop: a PUSH (a redirect such as / to /home is a REPLACE, a load a POP).
  const movedOn = useNavigationType() === 'PUSH';
  const lines = useCartLines()?.length ?? 0;
  const wanted = installOfferWanted(inShop, movedOn, lines);
  const canInstall = installable && wanted;
  const showIosInstallHint = iosHint && wanted;
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
          <p id="pwa-install-title">{t.installOffer(shopName())}</p>
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
