import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lineKey } from '../../domain/cart.js';
import { CAKE_MESSAGE_MAX, countCharacters, giftMessages } from '../../domain/gifts.js';
import { addToCart, cartLines, setCakeMessage } from '../../sw/cart.js';
import { db } from '../../sw/db.js';
import { keepOnlyAccount } from '../../sw/session-writes.js';
import { makeProduct, putProducts, renderAt, resetStore } from './storefront-fixtures.js';

/**
 * Gifts on the shopper's screens (issue 26): the product page's message counter and its refusal,
 * and a cart line's identity (product, option, message, photo), with the message editable in the
 * cart. Real Dexie over fake-indexeddb, the real app shell.
 */
const HINDI = 'जन्मदिन मुबारक दादी';
const cake = makeProduct(1, { title: 'Red Velvet Celebration Cake', takesMessage: true });
const photoCake = makeProduct(2, { title: 'Vanilla Photo Cake', takesMessage: true, photoCake: true });

beforeEach(async () => {
  await resetStore();
  await putProducts([cake, photoCake]);
});
afterEach(() => cleanup());

const photo = (key: string) => ({ key, blob: new Blob(['jpeg bytes'], { type: 'image/jpeg' }) });

describe('a cart line is its product, option, message and photo', () => {
  it('two of one cake with two messages are two lines; the same message again adds to its line', async () => {
    await addToCart(cake, null, 1, db, { cakeMessage: HINDI });
    await addToCart(cake, null, 1, db, { cakeMessage: 'Happy birthday Mum' });
    await addToCart(cake, null, 1, db, { cakeMessage: `  ${HINDI} ` });
    await addToCart(cake, null, 1, db);
    const lines = await cartLines();
    expect(lines.map((l) => [l.cakeMessage ?? null, l.quantity])).toEqual([
      [HINDI, 2],
      ['Happy birthday Mum', 1],
      [null, 1],
    ]);
    // A line without a message keeps the key it had before messages: carts stored then still merge.
    expect(lines[2]?.key).toBe('1:base');
    expect(new Set(lines.map((l) => l.key)).size).toBe(3);
  });

  it('a photo makes its own line; the same chosen photo again adds to it', async () => {
    await addToCart(photoCake, null, 1, db, { cakeMessage: HINDI, photo: photo('k-1') });
    await addToCart(photoCake, null, 1, db, { cakeMessage: HINDI, photo: photo('k-2') });
    await addToCart(photoCake, null, 1, db, { cakeMessage: HINDI, photo: photo('k-1') });
    const lines = await cartLines();
    expect(lines.map((l) => [l.photo?.key, l.quantity])).toEqual([
      ['k-1', 2],
      ['k-2', 1],
    ]);
    // (fake-indexeddb does not keep a jsdom Blob's bytes; tests/e2e/gifts.test.ts checks the real one.)
    expect(lines[0]?.key).toBe(lineKey(2, null, HINDI, 'k-1'));
  });

  it("editing a line's message moves it to its new identity, in its place, and merges with an equal line", async () => {
    const a = await addToCart(cake, null, 1, db, { cakeMessage: 'For Dadi' });
    await addToCart(cake, null, 2, db, { cakeMessage: 'For Nani' });
    const moved = await setCakeMessage(a.key, HINDI);
    let lines = await cartLines();
    expect(lines.map((l) => [l.key, l.cakeMessage, l.quantity])).toEqual([
      [moved, HINDI, 1],
      [lineKey(1, null, 'For Nani'), 'For Nani', 2],
    ]);
    await setCakeMessage(moved ?? '', 'For Nani');
    lines = await cartLines();
    expect(lines.map((l) => [l.cakeMessage, l.quantity])).toEqual([['For Nani', 3]]);
  });
});

describe('the product page', () => {
  it('counts the message as a person counts it, live, and refuses one over 40', async () => {
    renderAt('/products-details/1');
    const field = await screen.findByLabelText('Message on the cake');
    fireEvent.change(field, { target: { value: HINDI } });
    const count = countCharacters(HINDI);
    expect(count).toBeLessThan([...HINDI].length);
    expect(screen.getByText(`${count}/${CAKE_MESSAGE_MAX}`)).toBeTruthy();

    // 41 family emoji (each one person-counted character of several code points): over the limit.
    const family = '👨‍👩‍👧'.repeat(41);
    fireEvent.change(field, { target: { value: family } });
    expect(screen.getByText(`41/${CAKE_MESSAGE_MAX}`)).toBeTruthy();
    expect(screen.getByText(giftMessages.cakeMessageTooLong)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
    await waitFor(() =>
      expect(screen.getAllByText(giftMessages.cakeMessageTooLong).length).toBeGreaterThan(0),
    );
    expect(await cartLines()).toEqual([]);

    fireEvent.change(field, { target: { value: '👨‍👩‍👧'.repeat(40) } });
    expect(screen.getByText(`40/${CAKE_MESSAGE_MAX}`)).toBeTruthy();
    fireEvent.change(field, { target: { value: HINDI } });
    fireEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
    await waitFor(async () => expect((await cartLines()).map((l) => l.cakeMessage)).toEqual([HINDI]));
  });

  it("a photo cake asks for its photo before it goes to the cart, and says it needs a day's notice", async () => {
    renderAt('/products-details/2');
    await screen.findByLabelText('Photo for the cake');
    expect(screen.getAllByText(giftMessages.photoCakeNotice(), { exact: false }).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
    const input = screen.getByLabelText('Photo for the cake');
    // Said at the photo field, which takes the focus (not in the page's message region, where it would
    // outlive the problem).
    await waitFor(() =>
      expect(screen.getAllByText(giftMessages.photoMissing(photoCake.title))).toHaveLength(1),
    );
    expect(
      screen.getByText(giftMessages.photoMissing(photoCake.title)).closest('.cake-photo'),
    ).not.toBeNull();
    expect(document.activeElement).toBe(input);
    expect(await cartLines()).toEqual([]);
    fireEvent.change(input, {
      target: { files: [new File(['gif'], 'dadi.gif', { type: 'image/gif' })] },
    });
    expect(await screen.findByText(giftMessages.photoType)).toBeTruthy();
    // A photo added: nothing says one is missing any more, and the cake goes to the cart.
    fireEvent.change(input, {
      target: { files: [new File(['jpeg'], 'dadi.jpg', { type: 'image/jpeg' })] },
    });
    await waitFor(() => expect(screen.queryByText(giftMessages.photoType)).toBeNull());
    expect(screen.queryByText(giftMessages.photoMissing(photoCake.title))).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add to Cart' }));
    await waitFor(async () => expect(await cartLines()).toHaveLength(1));
    expect(screen.queryByText(giftMessages.photoMissing(photoCake.title))).toBeNull();
  });
});

describe('the cart', () => {
  it('reads the message back and edits it; the edited line keeps its place and quantity', async () => {
    await addToCart(cake, null, 2, db, { cakeMessage: 'For Dadi' });
    renderAt('/cart');
    const list = await screen.findByRole('list', { name: 'Cart items' });
    expect(await within(list).findByText(giftMessages.onTheCake('For Dadi'))).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: `Edit the message on ${cake.title}` }));
    const field = within(list).getByLabelText('Message on the cake');
    fireEvent.change(field, { target: { value: HINDI } });
    fireEvent.click(within(list).getByRole('button', { name: 'Save message' }));
    expect(await within(list).findByText(giftMessages.onTheCake(HINDI))).toBeTruthy();
    const lines = await cartLines();
    expect(lines.map((l) => [l.key, l.cakeMessage, l.quantity])).toEqual([
      [lineKey(1, null, HINDI), HINDI, 2],
    ]);
  });
});

describe('saved recipients on the device', () => {
  const dadi = {
    id: 1,
    name: 'Dadi Kaur',
    phone: '9876543210',
    address: 'House 12, Sector 70',
    city: 'Mohali',
    state: 'Punjab',
    pincode: '160062',
  };
  it("are the account's personal data: a sign-in keeps only its own, a logout none", async () => {
    await db.recipients.bulkPut([
      { userId: 7, rows: [dadi], fetchedAt: 1 },
      { userId: 8, rows: [{ ...dadi, id: 2, name: 'Nani' }], fetchedAt: 1 },
    ]);
    await keepOnlyAccount(7);
    expect((await db.recipients.toArray()).map((r) => r.userId)).toEqual([7]);
    await keepOnlyAccount(null);
    expect(await db.recipients.count()).toBe(0);
  });
});
