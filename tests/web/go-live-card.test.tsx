import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEED_AREAS } from '../../domain/delivery-areas.js';
import {
  type DemoLeft,
  type DemoRemoved,
  type GoLive,
  goLiveChecklist,
  goLiveMessages,
  isReady,
} from '../../domain/go-live.js';
import { DEMO_PROFILE } from '../../domain/shop-profile.js';
import { ConfirmHost, SignInAgain } from '../../web/admin/dialogs.js';
import GoLiveChecklist from '../../web/admin/GoLiveChecklist.js';
import { AlertsProvider } from '../../web/components/Alerts.js';

/**
 * The dashboard's "Make it yours" card: hidden once everything is done and no demo is left; else
 * a list of links with each tick in words; the removal asks first, with the counts, and only a yes
 * sends it; afterwards the card says what it removed and offers no second removal.
 */
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const NodeRequest = globalThis.Request;
class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' && input.startsWith('/') ? new URL(input, location.href) : input, init);
  }
}

const NONE: DemoLeft = { products: 0, categories: 0, images: 0, coupon: false };
const DEMO: DemoLeft = { products: 86, categories: 14, images: 86, coupon: true };
const answer = (demo: DemoLeft, overrides: { policiesReviewed?: boolean } = {}): GoLive => {
  const items = goLiveChecklist({
    profileSaved: true,
    profile: DEMO_PROFILE,
    areas: SEED_AREAS,
    provider: null,
    codOnlyConfirmed: true,
    policiesReviewed: overrides.policiesReviewed ?? false,
  });
  return { items, demo, ready: isReady(items, demo) };
};

let state: GoLive;
let removals: number;

beforeEach(() => {
  removals = 0;
  vi.stubGlobal('Request', PageRequest);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(String(input), init);
      const path = new URL(req.url).pathname;
      if (path === '/api/admin/go-live')
        return json({ isSuccess: true, data: state, sys_message: 'Success' });
      if (path === '/api/admin/demo/remove' && req.method === 'POST') {
        removals += 1;
        const removed: DemoRemoved = { ...state.demo, coupon: 'ended', offerCleared: true };
        state = { ...state, demo: NONE, ready: isReady(state.items, NONE) };
        return json({ isSuccess: true, data: removed, sys_message: goLiveMessages.removed(removed) });
      }
      return json({ isSuccess: false, data: null, sys_message: 'Not here.' }, 404);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderCard() {
  const element = (
    <AlertsProvider>
      <SignInAgain>
        <GoLiveChecklist />
        <ConfirmHost />
      </SignInAgain>
    </AlertsProvider>
  );
  return render(
    <RouterProvider
      router={createMemoryRouter([{ path: '*', element }], { initialEntries: ['/dashboard'] })}
    />,
  );
}

describe('the Make it yours card', () => {
  it('lists each item as a link to its screen, its tick said in words', async () => {
    state = answer(DEMO);
    renderCard();
    const card = await screen.findByRole('region', { name: 'Make it yours' });
    const items = within(card).getAllByRole('listitem');
    expect(items).toHaveLength(6);
    const payments = items.find((li) => li.textContent?.includes('Cash on Delivery only'));
    expect(payments?.textContent).toContain('Done');
    const profile = within(card).getByRole('link', { name: 'Your shop’s name, phone and email' });
    expect(profile.getAttribute('href')).toBe('/shop-profile');
    expect(profile.closest('li')?.textContent).toContain('To do');
    expect(within(card).getByText(/1 of 6 done/)).toBeTruthy();
  });

  it('is not shown when everything is done and no demo is left', async () => {
    const all = answer(NONE, { policiesReviewed: true });
    state = { ...all, items: all.items.map((i) => ({ ...i, done: true, hint: '' })), ready: true };
    renderCard();
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    // The answer is in and drawn: the card still draws nothing.
    await act(() => new Promise((done) => setTimeout(done, 100)));
    expect(screen.queryByRole('region', { name: 'Make it yours' })).toBeNull();
  });

  it('removes the demo only after a yes in the confirm that counts it, then says what went', async () => {
    state = answer(DEMO);
    renderCard();
    const button = await screen.findByRole('button', { name: 'Remove the demo catalogue' });
    fireEvent.click(button);
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(goLiveMessages.confirmRemoval(DEMO))).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it for now' }));
    });
    expect(removals).toBe(0);

    fireEvent.click(screen.getByRole('button', { name: 'Remove the demo catalogue' }));
    dialog = await screen.findByRole('dialog');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Remove the demo catalogue' }));
    });
    const said = await screen.findByTestId('go-live-removed');
    expect(said.textContent).toBe(
      'Removed 86 products, 14 categories, 86 pictures and the coupon SAVE200. The product pages no longer advertise SAVE200.',
    );
    expect(removals).toBe(1);
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Remove the demo catalogue' })).toBeNull(),
    );
  });
});
