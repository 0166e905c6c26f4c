import { useLocation, useNavigation } from 'react-router-dom';

/**
 * The spec's thin bar during route navigation. It runs while the router is
 * navigating (React Router's `useNavigation`: a lazy screen's code on its
 * way), then once more for each new location, so the shopper sees the tap was
 * taken even when the screen is already on the device (screens read Dexie,
 * so a route change is usually quick).
 */
export function ProgressBar() {
  const { key } = useLocation();
  const busy = useNavigation().state !== 'idle';
  if (busy) return <div className="progress progress--busy" aria-hidden="true" />;
  // A new element (keyed by the location) restarts the CSS animation on every navigation.
  return <div key={key} className="progress progress--once" aria-hidden="true" />;
}

/** Suspense fallback while a lazily loaded screen's code arrives (code, not data: never long). */
export function RouteLoading() {
  return (
    <div className="progress progress--busy" role="progressbar" aria-label="Loading page" aria-busy="true" />
  );
}
