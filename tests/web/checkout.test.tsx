import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkoutMessages as t } from '../../domain/checkout-messages.js';
import { earliestDeliveryDate } from '../../domain/delivery.js';
import { areaMessages, deliveryAreasText, SEED_AREAS } from '../../domain/delivery-areas.js';
import { giftMessages } from '../../domain/gifts.js';
import { messages } from '../../domain/messages.js';
import { formatRupees } from '../../domain/money.js';
import { slotMessages } from '../../domain/slot-messages.js';
import { checkoutDrafts } from '../../sw/checkout-drafts.js';
import { db } from '../../sw/db.js';
import { upgradeRow } from '../../sw/outbox-row.js';
import { endSessionOnDevice, sessionRow } from '../../sw/session-writes.js';
import { QueuedOrders } from '../../web/checkout/QueuedOrders.js';
import { slotPrice } from '../../web/checkout/SlotPicker.js';
import { setPwaState } from '../../web/pwa/pwa-state.js';
import { placedAnswer } from '../support/order-fixtures.js';
import { queuedRow } from '../support/shopper.js';
import { makeProduct, putProducts, renderAt, resetStore, url } from './storefront-fixtures.js';

/**
 * The checkout form's rules and texts in jsdom over fake-indexeddb: errors
 * only after a submit attempt and in the spec's words, the pincode filling the
 * state and city and setting the delivery charge, a pincode the shop does not
 * deliver to refused at once, the pincode box, the date's default, and the
 * queued order's screens.
 */
function token(userId: number): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256' })}.${b64({ sub: userId, exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
}
const shopper = {
  token: token(7),
  role: '0',
  veryOtpLoginID: 7,
  email: 'asha@example.com',
  phone: '9876543210',
};

function signIn(): void {
  localStorage.setItem('token', shopper.token);
  localStorage.setItem('userId', '7');
  localStorage.setItem('email', shopper.email);
  localStorage.setItem('phone', shopper.phone);
}

async function cartWith(price: number): Promise<void> {
  await db.cart.put({
    key: '5:base',
    productID: 5,
    variationID: null,
    variationName: null,
    title: 'Chocolate Truffle',
    image: '/media/p5-320.webp',
    price,
    quantity: 2,
    addedAt: 1,
  });
}

// The checkout is a lazy chunk with the whole form behind it: its first import in jsdom takes seconds.
configure({ asyncUtilTimeout: 15_000 });

const field = (label: string) => screen.getByLabelText(label, { exact: true }) as HTMLInputElement;

beforeEach(async () => {
  await resetStore();
  // The delivery areas as the catalogue feed brings them to the device.
  await db.areas.bulkPut([...SEED_AREAS]);
  // Offline, so nothing in these tests reaches for the network.
  setPwaState({ offline: true });
});
afterEach(() => {
  cleanup();
  setPwaState({ offline: false });
});

describe("the checkout's draft on the phone", { timeout: 30_000 }, () => {
  it('what was typed comes back after the page is gone, until Clear; logout takes it off the phone', async () => {
    signIn();
    await cartWith(600);
    const first = renderAt('/checkout');
    await screen.findByText('Chocolate Truffle');
    fireEvent.change(field('Pincode'), { target: { value: '160062' } });
    fireEvent.change(field('Full Name'), { target: { value: 'Asha Verma' } });
    fireEvent.click(screen.getByLabelText(giftMessages.sendToSomeoneElse));
    fireEvent.change(field("Recipient's name"), { target: { value: 'Dadi Ji' } });
    fireEvent.change(field("Recipient's full shipping address"), { target: { value: 'House 7, Phase 5' } });
    fireEvent.click(screen.getByLabelText(giftMessages.card));
    fireEvent.change(field('Message on the card'), { target: { value: 'Happy 80th, Dadi!' } });
    await waitFor(async () =>
      expect((await checkoutDrafts().get(7))?.gift).toMatchObject({
        card: true,
        message: 'Happy 80th, Dadi!',
      }),
    );
    await screen.findByText(t.draftKept);
    // The page is gone (a reload, a payment window that took it): a new one finds it all.
    first.unmount();
    renderAt('/checkout');
    await waitFor(() => expect(field('Message on the card').value).toBe('Happy 80th, Dadi!'));
    expect(field('Pincode').value).toBe('160062');
    expect(field('Full Name').value).toBe('Asha Verma');
    expect(field("Recipient's name").value).toBe('Dadi Ji');
    expect(field("Recipient's full shipping address").value).toBe('House 7, Phase 5');

    fireEvent.click(screen.getByRole('button', { name: t.draftClear }));
    await waitFor(() => expect(screen.queryByLabelText("Recipient's name")).toBeNull());
    expect(field('Full Shipping Address').value).toBe('');
    expect(await checkoutDrafts().count()).toBe(0);

    // Typed again, then the shopper logs out: the next person on the phone finds nothing of it.
    fireEvent.change(field('Full Shipping Address'), { target: { value: 'House 12, Sector 70' } });
    await waitFor(async () => expect(await checkoutDrafts().count()).toBe(1));
    await endSessionOnDevice();
    expect(await checkoutDrafts().count()).toBe(0);
  });

  it('a draft older than the order made from it is not offered again', async () => {
    signIn();
    await cartWith(600);
    await checkoutDrafts().put({
      userId: 7,
      fields: { CustomerName: 'Asha Verma', CustomerAddress: 'Old Draft Lane', CustomerPincode: '160062' },
      dateChosen: false,
      slotID: null,
      gift: {},
      savedAt: Date.now() - 60_000,
    });
    await db.outbox.put(
      queuedRow(shopper, { productID: 5, title: 'Chocolate Truffle', price: 600 }, 'k-1', Date.now()),
    );
    renderAt('/checkout');
    await screen.findByText('Chocolate Truffle');
    // The last order's address, not the draft's: that order was made from it.
    await waitFor(() => expect(field('Full Shipping Address').value).toBe('House 12, Sector 70'));
    expect(await checkoutDrafts().count()).toBe(0);
  });
});

describe('checkout form', { timeout: 30_000 }, () => {
  it('shows errors only after a submit attempt, in the spec’s words', async () => {
    signIn();
    await cartWith(600);
    renderAt('/checkout');
    await screen.findByRole('heading', { name: 'Checkout' });
    // The form comes once the device has answered for the cart and the slots.
    await screen.findByLabelText('Preferred Delivery Date');
    expect(screen.queryByText(messages.fullNameRequired)).toBeNull();
    expect((field('Preferred Delivery Date') as HTMLInputElement).value).toBe(
      earliestDeliveryDate(new Date()),
    );
    expect(field('Email').value).toBe(shopper.email);
    expect(field('Email').readOnly).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    await screen.findByText(messages.formInvalid);
    for (const text of [messages.fullNameRequired, messages.addressRequired, messages.pincodeRequired]) {
      expect(screen.getByText(text)).toBeTruthy();
    }
    // State and City are the pincode's: what is missing is the pincode, said once, under it.
    expect(screen.queryByText(messages.stateRequired)).toBeNull();
    expect(screen.queryByText(messages.cityRequired)).toBeNull();
    expect(field('Full Name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field('Pincode'));
    fireEvent.change(field('Pincode'), { target: { value: '12a' } });
    await screen.findByText(messages.pincodeInvalid);
  });

  it("the summary names each line's size as the cart does", async () => {
    signIn();
    await db.cart.put({
      key: '5:51',
      productID: 5,
      variationID: 51,
      variationName: 'Weight',
      variationValue: '1 kg',
      title: 'Chocolate Truffle',
      image: '/media/p5-320.webp',
      price: 1199,
      quantity: 1,
      addedAt: 1,
    });
    renderAt('/checkout');
    expect(await screen.findByText('(Weight: 1 kg)', { exact: false })).toBeTruthy();
  });

  it('the pincode fills State and City and sets the charge; one we do not deliver to is refused at once', async () => {
    signIn();
    await cartWith(600);
    renderAt('/checkout');
    await screen.findByText('Chocolate Truffle');
    // No pincode, no charge yet: the summary says what it waits for.
    expect(screen.getByText(t.pincodeFirst)).toBeTruthy();
    fireEvent.change(field('Pincode'), { target: { value: '140603' } });
    await waitFor(() => expect(field('City').value).toBe('Zirakpur'));
    expect(field('State').value).toBe('Punjab');
    expect(field('City').readOnly).toBe(true);
    expect(screen.getByText(t.deliveryCharges)).toBeTruthy();
    expect(screen.getByText(formatRupees(1200 + 250))).toBeTruthy();
    // Typed here, it is the shopper's pincode for the header and the product pages too.
    await waitFor(() => expect(localStorage.getItem('deliveryPincode')).toBe('140603'));

    fireEvent.change(field('Pincode'), { target: { value: '110001' } });
    const refusal = `${areaMessages.outside('110001')} ${deliveryAreasText(SEED_AREAS)}.`;
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(field('Pincode').getAttribute('aria-invalid')).toBe('true');
    expect(field('City').value).toBe('');
    expect(screen.getByText(t.notDeliveredHere)).toBeTruthy();
    expect(document.querySelector('.co-total dd')?.textContent).toContain(formatRupees(1200));
    // A pincode the shop does not deliver to is not remembered: the header never says "Delivering to 110001".
    expect(localStorage.getItem('deliveryPincode')).toBe('140603');

    fireEvent.change(field('Pincode'), { target: { value: '16 00-62 99' } });
    expect(field('Pincode').value).toBe('160062');
    await waitFor(() => expect(field('City').value).toBe('Mohali'));
    expect(screen.queryByText(refusal)).toBeNull();
    expect(screen.getByText(formatRupees(1200 + 150))).toBeTruthy();
  });

  it('a pincode we do not deliver to: Place Order is refused and nothing is queued', async () => {
    signIn();
    await cartWith(600);
    renderAt('/checkout');
    await screen.findByText('Chocolate Truffle');
    fireEvent.change(field('Full Name'), { target: { value: 'Asha Verma' } });
    fireEvent.change(field('Full Shipping Address'), { target: { value: 'House 12, Connaught Place' } });
    fireEvent.change(field('Pincode'), { target: { value: '110001' } });
    await screen.findByText(areaMessages.outside('110001'), { exact: false });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    });
    await screen.findByText(messages.formInvalid);
    expect(document.activeElement).toBe(field('Pincode'));
    expect(await db.outbox.count()).toBe(0);
    expect(url()).toBe('/checkout');
  });

  it("the shopper's remembered pincode fills the empty field, and with it the city", async () => {
    signIn();
    await cartWith(600);
    localStorage.setItem('deliveryPincode', '134101');
    renderAt('/checkout');
    await screen.findByText('Chocolate Truffle');
    expect(field('Pincode').value).toBe('134101');
    await waitFor(() => expect(field('City').value).toBe('Panchkula'));
    expect(field('State').value).toBe('Haryana');
    expect(screen.getByText(formatRupees(1200 + 300))).toBeTruthy();
  });

  it('a slot with no surcharge is "no extra charge" while a delivery charge applies; "Free" only at none', () => {
    expect(slotPrice(0, 150)).toBe(slotMessages.noSurcharge);
    expect(slotPrice(0, null)).toBe(slotMessages.noSurcharge);
    expect(slotPrice(0, 0)).toBe('Free');
    expect(slotPrice(250, 150)).toBe(formatRupees(250));
  });

  it('offline: the online option is disabled and says why; a coupon waits for the network', async () => {
    signIn();
    await cartWith(600);
    renderAt('/checkout');
    const online = (await screen.findByRole('radio', { name: /Pay online/ })) as HTMLInputElement;
    expect(online.disabled).toBe(true);
    expect(screen.getByText(t.onlineNeedsNetwork)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(t.couponLabel), { target: { value: 'SAVE200' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await screen.findByText(t.couponNeedsNetwork);
  });

  it('a valid order offline is queued with the cart emptied, and the shopper is told what happens next', async () => {
    signIn();
    await cartWith(600);
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    renderAt('/checkout');
    await screen.findByText('Chocolate Truffle');
    fireEvent.change(field('Pincode'), { target: { value: '160062' } });
    fireEvent.change(field('Full Name'), { target: { value: 'Asha Verma' } });
    fireEvent.change(field('Full Shipping Address'), { target: { value: 'House 12, Sector 70' } });
    await waitFor(() => expect(field('City').value).toBe('Mohali'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    });
    await waitFor(() => expect(url()).toMatch(/^\/order-success\?order=/));
    await screen.findByText(t.successQueuedNext);
    expect(await db.cart.count()).toBe(0);
    const [row] = (await db.outbox.toArray()).map(upgradeRow);
    expect(row).toMatchObject({ state: 'queued', userId: 7, figures: { total: 1350, deliveryCharge: 150 } });
    expect(row?.request).toMatchObject({
      TotalAmount: 1350,
      PaymentMethod: 'Cash on Delivery',
      CustomerPincode: '160062',
      State: 'Punjab',
      City: 'Mohali',
    });
    expect(screen.getByText(t.queuedOffline)).toBeTruthy();
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
  });

  it('an order needing attention shows both figures and the notice elsewhere', async () => {
    signIn();
    const row = queuedRow(
      { ...shopper, role: '0' },
      { productID: 5, title: 'Chocolate Truffle', price: 600 },
      'k-1',
      Date.now(),
    );
    await db.outbox.put({
      ...row,
      state: 'attention',
      problem: {
        kind: 'repriced',
        status: 409,
        message: messages.pricesChanged,
        data: {
          reason: 'repriced',
          lines: [
            {
              productID: 5,
              variationID: null,
              productName: 'Chocolate Truffle',
              quantity: 1,
              old: { price: 600, lineTotal: 600 },
              new: { price: 650, lineTotal: 650 },
            },
          ],
          subtotal: 650,
          deliveryCharge: 150,
          discount: 0,
          total: { old: 750, new: 800 },
          coupon: null,
        },
      },
    });
    renderAt('/home');
    await screen.findByText(/needs your attention before it can be placed/);
    fireEvent.click(screen.getByRole('link', { name: 'Review order' }));
    await screen.findByText(t.repricedTitle);
    expect(screen.getByRole('button', { name: t.confirmNew(formatRupees(800)) })).toBeTruthy();
    const compare = screen.getByRole('table');
    expect(within(compare).getByRole('row', { name: /Total/ }).textContent).toBe(
      `Total${formatRupees(750)}${formatRupees(800)}`,
    );
    expect(screen.getByRole('link', { name: '1 order waiting to be sent' })).toBeTruthy();
  });

  it('a queued order whose pincode left the areas waits: the reason, where we deliver, a new address to send it to', async () => {
    signIn();
    // The shopper's decisions are the signed-in account's: the device's session row says whose.
    await db.session.put(sessionRow(shopper));
    // 160062 was removed while the phone was offline; the order went when it came back.
    await db.areas.delete('160062');
    const row = queuedRow(
      shopper,
      { productID: 5, title: 'Chocolate Truffle', price: 600 },
      'k-a',
      Date.now(),
    );
    await db.outbox.put({
      ...row,
      state: 'attention',
      problem: {
        kind: 'undeliverable',
        status: 422,
        message: areaMessages.outside('160062'),
        data: { reason: 'undeliverable' },
      },
    });
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    renderAt('/order-success?order=k-a');
    await screen.findByRole('heading', { name: t.undeliverableTitle });
    expect(screen.getByText(areaMessages.outside('160062'))).toBeTruthy();
    const areasNow = await db.areas.toArray();
    expect(await screen.findByText(`${deliveryAreasText(areasNow)}.`)).toBeTruthy();
    const send = screen.getByRole('button', { name: t.addressSend }) as HTMLButtonElement;
    // The refused pincode cannot be sent again as it is.
    expect(send.disabled).toBe(true);
    fireEvent.change(field('Pincode'), { target: { value: '110001' } });
    await screen.findByText(`${areaMessages.outside('110001')} ${deliveryAreasText(areasNow)}.`);
    expect(send.disabled).toBe(true);
    fireEvent.change(field('Pincode'), { target: { value: '160059' } });
    await screen.findByText(t.areaFound('Mohali', 'Punjab', formatRupees(150)));
    fireEvent.change(field('Full Shipping Address'), { target: { value: 'House 4, Phase 7, Mohali' } });
    expect(send.disabled).toBe(false);
    await act(async () => {
      fireEvent.click(send);
    });
    await waitFor(async () => expect((await db.outbox.get('k-a'))?.state).toBe('queued'));
    const [stored] = (await db.outbox.toArray()).map(upgradeRow);
    expect(stored?.problem).toBeNull();
    expect(stored?.request).toMatchObject({
      CustomerPincode: '160059',
      State: 'Punjab',
      City: 'Mohali',
      CustomerAddress: 'House 4, Phase 7, Mohali',
      TotalAmount: 600 + 150,
    });
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
  });

  it("another account's orders: no notice, no badge, and their page reads as missing", async () => {
    const theirs = { ...shopper, veryOtpLoginID: 8, email: 'bina@example.com' };
    const product = { productID: 5, title: 'Chocolate Truffle', price: 600 };
    await db.outbox.bulkPut([
      {
        ...queuedRow(theirs, product, 'k-8', Date.now()),
        state: 'attention',
        problem: { kind: 'product-gone', status: 404, message: 'Gone.', data: null },
      },
      { ...queuedRow(theirs, product, 'k-9', Date.now()), state: 'queued' },
    ]);
    signIn();
    renderAt('/order-success?order=k-8');
    await screen.findByRole('heading', { name: t.successMissing });
    expect(screen.queryByRole('button', { name: t.cancelOrder })).toBeNull();
    expect(screen.queryByText(/needs your attention/)).toBeNull();
    expect(screen.queryByRole('link', { name: /waiting to be sent/ })).toBeNull();
    cleanup();

    // The same rows, signed in as their own account: all of it shows.
    localStorage.setItem('token', token(8));
    localStorage.setItem('userId', '8');
    renderAt('/order-success?order=k-8');
    await screen.findByRole('button', { name: t.cancelOrder });
    expect(await screen.findByRole('link', { name: '2 orders waiting to be sent' })).toBeTruthy();
  });
  it('My Orders: a sent order waits for the kept history, shows while the history lacks it, and goes once it lists it', async () => {
    const queued = queuedRow(
      shopper,
      { productID: 5, title: 'Chocolate Truffle', price: 600 },
      'k-q',
      Date.now(),
    );
    const sent = queuedRow(
      shopper,
      { productID: 6, title: 'Red Roses', price: 500 },
      'k-s',
      Date.now() - 1000,
    );
    await db.outbox.bulkPut([
      queued,
      {
        ...sent,
        state: 'sent',
        placed: placedAnswer(41, sent.request, [
          {
            productID: 6,
            variationID: null,
            productName: 'Red Roses',
            variationName: null,
            unitPrice: 500,
            quantity: 1,
            lineTotal: 500,
          },
        ]),
      },
    ]);
    const at = (known: ReadonlySet<number> | undefined) => (
      <MemoryRouter>
        <QueuedOrders userId={7} knownOrderIds={known} />
      </MemoryRouter>
    );
    const { rerender } = render(at(undefined));
    await screen.findByText(/Chocolate Truffle/);
    expect(screen.queryByText(/Red Roses/)).toBeNull();
    rerender(at(new Set([12])));
    await screen.findByText(/Red Roses/);
    rerender(at(new Set([12, 41])));
    await waitFor(() => expect(screen.queryByText(/Red Roses/)).toBeNull());
    expect(screen.getByText(/Chocolate Truffle/)).toBeTruthy();
  });

  it("My Orders shows a queued order's lines: picture, title, the chosen option, quantity, unit price and sum", async () => {
    const weight = { variationID: 51, variationName: 'Weight', variationValue: '1 kg', price: 900 };
    await putProducts([makeProduct(5, { title: 'Chocolate Truffle', variations: [weight] })]);
    const row = queuedRow(
      shopper,
      { productID: 5, title: 'Chocolate Truffle', price: 900 },
      'k-5',
      Date.now(),
    );
    const [item] = row.request.OrderItems;
    if (!item) throw new Error('queuedRow made no line');
    row.request.OrderItems = [{ ...item, VariationID: 51, Quantity: 2, ProductImage: '/media/p5-320.webp' }];
    await db.outbox.put(row);
    signIn();
    renderAt('/my-orders');
    // A row queued before rows kept their lines' choices: the device's catalogue names the option.
    const option = await screen.findByText('Weight: 1 kg');
    const line = option.closest('li');
    expect([...(option.parentElement?.children ?? [])].map((c) => c.textContent)).toEqual([
      'Chocolate Truffle',
      'Weight: 1 kg',
      `2 × ${formatRupees(900)}`,
    ]);
    expect(line?.querySelector('.order-item__total')?.textContent).toBe(formatRupees(1800));
    expect(line?.querySelector('img')?.getAttribute('src')).toBe('/media/p5-320.webp');
  });
});
