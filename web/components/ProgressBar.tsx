import { useEffect, useState } from 'react';
import { useLocation } from '../app/router.js';

/**
 * The thin bar shown during route navigation. Screens read the device, so a
 * route change is quick; the bar runs once per change (and stays while a
 * route's code is still loading, see `RouteLoading`), so the shopper sees the
 * tap was taken.
 */
export function ProgressBar() {
  const location = useLocation();
  const [run, setRun] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: every navigation (a new location key) is the trigger.
  useEffect(() => {
    // A new key restarts the CSS animation on every navigation.
    setRun((n) => n + 1);
  }, [location.key]);
  return <div key={run} className="progress progress--once" aria-hidden="true" />;
}

/** Suspense fallback while a lazily loaded screen's code arrives (code, not data: never long). */
export function RouteLoading() {
  return (
    <div className="progress progress--busy" role="progressbar" aria-label="Loading page" aria-busy="true" />
  );
}
