import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeProduct, putProducts, renderAt, resetStore } from './storefront-fixtures.js';

/**
 * Share on the product page, on the real app over the device's catalogue: the
 * phone's share sheet where the browser has one, else a WhatsApp link and Copy
 * link. jsdom has no navigator.share, as a desktop browser has none.
 */
const cake = () =>
  makeProduct(5, {
    title: 'Truffle "cake" & more',
    price: 900,
    variations: [{ variationID: 3, variationName: 'Weight', variationValue: '2 kg', price: 1600 }],
  });

beforeEach(async () => {
  await resetStore();
  await putProducts([cake()]);
});
afterEach(() => {
  cleanup();
  Reflect.deleteProperty(navigator, 'share');
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('Share', () => {
  it("opens the phone's share sheet with the product's name, price line and own URL", async () => {
    const share = vi.fn(async (_data: ShareData) => undefined);
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    renderAt('/products-details/5');
    await screen.findByRole('heading', { level: 1, name: 'Truffle "cake" & more' });
    // The chosen option's price is the one shared.
    fireEvent.change(screen.getByRole('combobox', { name: 'Choose an option' }), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(share.mock.calls[0]?.[0]).toEqual({
      title: 'Truffle "cake" & more',
      text: 'Truffle "cake" & more: ₹1,600 at Bakery & Blooms',
      url: `${location.origin}/products-details/5`,
    });
    expect(screen.queryByRole('link', { name: 'Share on WhatsApp' })).toBeNull();
  });

  it('a closed share sheet is no error', async () => {
    const share = vi.fn(async () => {
      throw new DOMException('Share canceled', 'AbortError');
    });
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    renderAt('/products-details/5');
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    await waitFor(() => expect(share).toHaveBeenCalled());
    expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
  });

  it('offers a WhatsApp link and Copy link where the browser has no share sheet', async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderAt('/products-details/5');
    const link = await screen.findByRole('link', { name: 'Share on WhatsApp' });
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull();
    const href = new URL(link.getAttribute('href') ?? '');
    expect(`${href.origin}${href.pathname}`).toBe('https://wa.me/');
    expect(href.searchParams.get('text')).toBe(
      `Truffle "cake" & more: ₹900 at Bakery & Blooms\n${location.origin}/products-details/5`,
    );
    expect(link.getAttribute('rel')).toContain('noopener');

    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${location.origin}/products-details/5`));
    expect(await screen.findByRole('button', { name: 'Copied!' })).toBeTruthy();
  });
});
