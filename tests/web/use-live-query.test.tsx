import { act, render, screen, waitFor } from '@testing-library/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { Component, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ShopDatabase } from '../../sw/db.js';

/**
 * What the screens rely on from dexie-react-hooks' useLiveQuery (web/hooks/useCatalogue.ts and
 * the rest): it answers `undefined` first, then the stored rows, then every change made anywhere
 * (a sync, another tab), follows new deps, and throws a failed query to the error boundary (a
 * route's errorElement in the app).
 */
let store: ShopDatabase;
beforeEach(() => {
  store = new ShopDatabase(`live-${Math.random()}`);
});
afterEach(async () => {
  store.close();
  await store.delete();
});

function Count({ min }: { min: number }) {
  const count = useLiveQuery(() => store.categories.where('categoryID').aboveOrEqual(min).count(), [min]);
  return <p>{count === undefined ? 'not yet' : `count ${count}`}</p>;
}

class Boundary extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  override render() {
    return this.state.error ? <p>failed: {this.state.error}</p> : this.props.children;
  }
}

describe('useLiveQuery', () => {
  it('answers undefined, then the stored rows, then every later change', async () => {
    await store.categories.bulkPut([
      { categoryID: 1, categoryName: 'Cakes' },
      { categoryID: 2, categoryName: 'Flowers' },
    ]);
    render(<Count min={0} />);
    expect(screen.getByText('not yet')).toBeTruthy();
    await screen.findByText('count 2');
    await act(async () => {
      await store.categories.put({ categoryID: 3, categoryName: 'Gifts' });
    });
    await screen.findByText('count 3');
    await act(async () => {
      await store.categories.delete(1);
    });
    await screen.findByText('count 2');
  });

  it('runs the query again when its deps change', async () => {
    await store.categories.bulkPut([
      { categoryID: 1, categoryName: 'Cakes' },
      { categoryID: 5, categoryName: 'Flowers' },
    ]);
    const view = render(<Count min={0} />);
    await screen.findByText('count 2');
    view.rerender(<Count min={5} />);
    await screen.findByText('count 1');
  });

  it('throws a failed query to the error boundary', async () => {
    function Broken() {
      const value = useLiveQuery(() => Promise.reject(new Error('store unreadable')), []);
      return <p>{String(value)}</p>;
    }
    const quiet = console.error;
    console.error = () => undefined; // React reports the caught error; the boundary's text is the assertion.
    try {
      render(
        <Boundary>
          <Broken />
        </Boundary>,
      );
      await waitFor(() => expect(screen.getByText('failed: store unreadable')).toBeTruthy());
    } finally {
      console.error = quiet;
    }
  });
});
