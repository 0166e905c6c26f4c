import { liveQuery } from 'dexie';
import { type DependencyList, startTransition, useEffect, useReducer, useRef } from 'react';

/**
 * A Dexie live query as a hook: `undefined` until the store first answers, then
 * the latest answer (the previous one stays while new deps are being read);
 * a failed query throws in render, for an error boundary to catch. Unlike
 * dexie-react-hooks' hook, each answer re-renders as a transition: on a first
 * visit the catalogue lands while the first screen renders, and a blocking
 * re-render of a grid of cards per answer was one long task each on a phone;
 * as transitions React renders them in slices, batched together, yielding to
 * taps in between. It also skips that hook's extra subscribe-and-drop query
 * on mount, and keeps its code out of the first screen's bundle.
 */
export function useLiveQuery<T>(querier: () => T | Promise<T>, deps: DependencyList): T | undefined {
  const latest = useRef<{ value: T | undefined; error: unknown }>({ value: undefined, error: null });
  const [, changed] = useReducer((n: number) => n + 1, 0);
  useEffect(
    () => {
      const subscription = liveQuery(querier).subscribe({
        next(value) {
          const current = latest.current;
          if (current.error === null && Object.is(current.value, value)) return;
          latest.current = { value, error: null };
          startTransition(changed);
        },
        error(error: unknown) {
          latest.current = { value: latest.current.value, error: error ?? new Error('Live query failed') };
          startTransition(changed);
        },
      });
      return () => subscription.unsubscribe();
    },
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when the query is new, as with useEffect.
    deps,
  );
  if (latest.current.error !== null) throw latest.current.error;
  return latest.current.value;
}
