/**
 * How admin screens talk to the server. Admin work needs the network (it is
 * never queued): `useOnline()` says whether there is one, and `useAdminCall()`
 * is `call()` that, when the server answers 401 (the session ended while the
 * admin was typing), asks to sign in again in a dialog over the screen and
 * then repeats the call, so the form underneath keeps what was typed. Giving
 * up ends the session the app's usual way (`sessionLapsed`: to /login and back).
 */
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { adminMessages } from '../../domain/admin-messages.js';
import type { Endpoint, ResponseOf } from '../../domain/contract.js';
import type { Envelope } from '../../domain/envelope.js';
import { ApiError, type CallInput, call } from '../api/client.js';

function subscribe(onChange: () => void): () => void {
  globalThis.addEventListener('online', onChange);
  globalThis.addEventListener('offline', onChange);
  return () => {
    globalThis.removeEventListener('online', onChange);
    globalThis.removeEventListener('offline', onChange);
  };
}
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => globalThis.navigator?.onLine ?? true,
    () => true,
  );
}

export type AdminCall = <E extends Endpoint>(
  endpoint: E,
  input?: CallInput<E>,
) => Promise<Envelope<ResponseOf<E>>>;

/** Resolves when the admin has signed in again; rejects when they give up. */
export type AskToSignIn = () => Promise<void>;

const SignInContext = createContext<AskToSignIn>(() => Promise.reject(new Error('no sign-in dialog')));
export const SignInProvider = SignInContext.Provider;

export function useAdminCall(): AdminCall {
  const ask = useContext(SignInContext);
  return useCallback(
    async (endpoint, input) => {
      // A 401 is ours to answer here (the client would otherwise end the session and leave for
      // /login, losing the form): the dialog asks to sign in again, then the call is repeated.
      const own = { ...input, endSessionOn401: false };
      try {
        return await call(endpoint, own);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 401) throw err;
        await ask();
        return call(endpoint, own);
      }
    },
    [ask],
  ) as AdminCall;
}

export interface Loaded<T> {
  data: T | null;
  /** The server's message, or the network's; null while fine. */
  error: string | null;
  loading: boolean;
  /** The last failure was the network (status 0). */
  offline: boolean;
  reload(): void;
}

/**
 * Loads one admin endpoint whenever `key` changes (the query's identity).
 * An answer that arrives after a newer request started is dropped, so a fast
 * typist's search shows the results of the last text, not of a slower earlier one.
 */
export function useAdminQuery<E extends Endpoint>(
  endpoint: E,
  input: CallInput<E>,
  key: string,
  options: { enabled?: boolean } = {},
): Loaded<ResponseOf<E>> {
  const adminCall = useAdminCall();
  const online = useOnline();
  const enabled = options.enabled ?? true;
  const [state, setState] = useState<Omit<Loaded<ResponseOf<E>>, 'reload'>>({
    data: null,
    error: null,
    loading: enabled,
    offline: false,
  });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  const inputRef = useRef(input);
  inputRef.current = input;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the input; tick and online reload.
  useEffect(() => {
    if (!enabled || !online) {
      setState((s) => ({ ...s, loading: false }));
      return;
    }
    const id = ++latest.current;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true, error: null, offline: false }));
    adminCall(endpoint, { ...inputRef.current, signal: controller.signal }).then(
      (res) => {
        if (id === latest.current) setState({ data: res.data, error: null, loading: false, offline: false });
      },
      (err: unknown) => {
        if (id !== latest.current || (err instanceof DOMException && err.name === 'AbortError')) return;
        const apiErr = err instanceof ApiError ? err : null;
        setState((s) => ({
          ...s,
          loading: false,
          error: apiErr?.message ?? adminMessages.loadFailed,
          offline: apiErr?.offline ?? false,
        }));
      },
    );
    return () => controller.abort();
  }, [endpoint, key, tick, online, enabled, adminCall]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { ...state, reload };
}

/** What each screen shows instead of itself offline; the layout around it stays. */
export function NeedsConnection({ children }: { children: ReactNode }) {
  const online = useOnline();
  if (online) return <>{children}</>;
  return (
    <div className="admin-offline" role="status">
      <strong>{adminMessages.offlineBadge}</strong>
      <p>{adminMessages.needsConnection}</p>
    </div>
  );
}
