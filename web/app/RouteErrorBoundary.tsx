import { Component, type ErrorInfo, type ReactNode, useEffect, useState } from 'react';
import { shellMessages } from '../../domain/shell-messages.js';

/**
 * Around the routes, so a failing screen never leaves a blank page. A screen
 * whose code is not on the device (a first visit that went offline before
 * the worker saved it) says so and offers to try again once back online; any
 * other failure says something went wrong and offers a reload. Both reload
 * the page: React's lazy() keeps a failed import, so only a fresh page asks
 * for the chunk again. A change of path clears the failure.
 */
interface State {
  error: unknown;
}

export class RouteErrorBoundary extends Component<{ children: ReactNode; path: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error ?? new Error('Unknown error') };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A screen failed', error, info.componentStack);
  }

  override componentDidUpdate(previous: { path: string }): void {
    // Another page starts clean (its screen may well load); the failed one stays failed until a reload.
    if (previous.path !== this.props.path && this.state.error !== null) this.setState({ error: null });
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return <ScreenFailed chunk={isChunkLoadError(this.state.error)} />;
  }
}

/** Chromium, Firefox and Safari word a failed dynamic import differently; Vite's preload adds its own. */
export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /dynamically imported module|Importing a module script failed|Failed to fetch|error loading dynamically|Unable to preload CSS|ChunkLoadError/i.test(
    text,
  );
}

function useOnline(): boolean {
  const [online, setOnline] = useState(() => globalThis.navigator?.onLine ?? true);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    addEventListener('online', on);
    addEventListener('offline', off);
    return () => {
      removeEventListener('online', on);
      removeEventListener('offline', off);
    };
  }, []);
  return online;
}

function ScreenFailed({ chunk }: { chunk: boolean }) {
  const online = useOnline();
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
