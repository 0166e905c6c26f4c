import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminOrderDetail } from '../../domain/admin-answers.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { ConfirmHost, SignInAgain } from '../../web/admin/dialogs.js';
import { LeaveGuardProvider } from '../../web/admin/leave-guard.js';
import OrderDetail from '../../web/admin/OrderDetail.js';
import Orders from '../../web/admin/Orders.js';
import { AlertsProvider } from '../../web/components/Alerts.js';

/**
 * The admin's order page of an unpaid order, and the orders list searched by an account's email,
 * offer to cancel the account's unpaid open orders in one step when it holds more than one of them
 * for one date: the button names how many, a confirm names them again with the account, and only a confirmed
 * answer calls the server, whose count the page then says.
 */
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

// Node's Request (under jsdom) does not resolve a path against the page as a browser's does.
const NodeRequest = globalThis.Request;
class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' && input.startsWith('/') ? new URL(input, location.href) : input, init);
  }
}

const order = (unpaid: number): AdminOrderDetail => ({
  payment: paidOnline
    ? {
        provider: 'razorpay',
        providerOrderID: 'order_R1',
        paymentID: 'pay_P1',
        status: 'captured',
        paid: 1100,
        refunded: 0,
        refundable: 1100,
        refunds: [],
      }
    : null,
  orderID: 41,
  status: unpaid ? 'placed' : 'cancelled',
  nextStatuses: unpaid ? ['confirmed', 'cancelled'] : [],
  userEmail: 'hoarder@example.test',
  customerName: 'Hoarder',
  customerEmail: 'hoarder@example.test',
  customerPhone: '9876543210',
  customerAddress: 'House 1',
  city: 'Mohali',
  state: 'Punjab',
  pincode: '160062',
  subtotal: 700,
  deliveryCharge: 150,
  discount: 0,
  totalAmount: 1100,
  paymentMethod: 'Cash on Delivery',
  orderDate: '2026-11-27T10:00:00.000Z',
  deliveryDate: '2026-12-01',
  deliverySlot: { slotID: 6, name: 'Midnight', start: 1380, end: 1440 },
  slotCharge: 250,
  items: [],
  recipient: null,
  hidePrice: false,
  hideSender: false,
  card: null,
  couponCode: null,
  paymentId: null,
  providerOrderId: null,
  lines: [],
  timeline: [],
  userID: 9,
  accountUnpaidOpen: unpaid,
  accountUnpaidOnOneDate: Math.min(unpaid, onOneDate),
});

let unpaid = 3;
/** The most of the account's unpaid orders booked for one date. */
let onOneDate = 2;
/** Whether the order whose page is open was paid online. */
let paidOnline = false;
let posted: unknown[] = [];

beforeEach(() => {
  unpaid = 3;
  onOneDate = 2;
  paidOnline = false;
  posted = [];
  vi.stubGlobal('Request', PageRequest);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(String(input), init);
      const url = new URL(req.url);
      if (url.pathname === '/api/admin/orders') {
        const q = url.searchParams.get('q');
        const {
          lines: _l,
          timeline: _t,
          couponCode: _c,
          paymentId: _p,
          providerOrderId: _o,
          userID: _u,
          accountUnpaidOpen: _a,
          accountUnpaidOnOneDate: _d,
          ...summary
        } = order(unpaid);
        return json({
          isSuccess: true,
          data: {
            items: [summary],
            total: 1,
            page: 1,
            pageSize: 20,
            slips: 1,
            account:
              q === 'hoarder@example.test'
                ? { userID: 9, email: q, unpaidOpen: unpaid, unpaidOnOneDate: Math.min(unpaid, onOneDate) }
                : null,
          },
          sys_message: 'Success',
        });
      }
      if (url.pathname === '/api/admin/delivery-slots')
        return json({ isSuccess: true, data: { slots: [], closures: [] }, sys_message: 'Success' });
      if (url.pathname === '/api/admin/orders/41')
        return json({ isSuccess: true, data: order(unpaid), sys_message: 'Success' });
      if (url.pathname === '/api/admin/orders/cancel-unpaid' && req.method === 'POST') {
        posted.push(JSON.parse(await req.text()));
        const cancelled = unpaid;
        unpaid = 0;
        return json({
          isSuccess: true,
          data: { userID: 9, cancelled, orderIDs: [41, 42, 43] },
          sys_message: adminMessages.unpaidCancelled(cancelled),
        });
      }
      return json({ isSuccess: false, data: null, sys_message: 'Not here.' }, 404);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAt(path: string, screenElement: ReactElement) {
  const element = (
    <AlertsProvider>
      <LeaveGuardProvider>
        <SignInAgain>
          {screenElement}
          <ConfirmHost />
        </SignInAgain>
      </LeaveGuardProvider>
    </AlertsProvider>
  );
  return render(
    <RouterProvider router={createMemoryRouter([{ path: '*', element }], { initialEntries: [path] })} />,
  );
}

const renderDetail = () => renderAt('/admin-orders/41', <OrderDetail id="41" />);

/** Yes to the confirm: the server is called once, its count is said, and the button goes. */
async function cancelAllThree() {
  fireEvent.click(await screen.findByRole('button', { name: 'Cancel its 3 unpaid orders' }));
  const dialog = await screen.findByRole('dialog');
  await act(async () => {
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, cancel all 3' }));
  });
  await waitFor(() =>
    expect(screen.getByText('3 orders cancelled.', { selector: '.alerts *' })).toBeTruthy(),
  );
  expect(posted).toEqual([{ userID: 9 }]);
  await waitFor(() => expect(screen.queryByRole('button', { name: /unpaid order/ })).toBeNull());
}

describe("cancelling an account's unpaid open orders", () => {
  it('asks first, naming the count and the account; "Keep them" sends nothing', async () => {
    renderDetail();
    const button = await screen.findByRole('button', { name: 'Cancel its 3 unpaid orders' });
    expect(
      screen.getByText(/3 unpaid open orders on this account, 2 of them for one delivery date/),
    ).toBeTruthy();
    // A secondary action, not the page's red button.
    expect(button.className).not.toContain('admin-danger');
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(adminMessages.cancelUnpaidConfirm(3, 'hoarder@example.test')),
    ).toBeTruthy();
    expect(within(dialog).getByText(/all 3 unpaid open orders of hoarder@example.test/)).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Keep them' }));
    });
    expect(posted).toEqual([]);
  });

  it('on yes cancels them through the server, says how many, and the button goes', async () => {
    renderDetail();
    await cancelAllThree();
  });

  it('offers nothing when no date holds more than one unpaid order of the account (no hoarding)', async () => {
    onOneDate = 1;
    renderDetail();
    await screen.findByText('Hoarder');
    expect(screen.queryByRole('button', { name: /unpaid order/ })).toBeNull();
  });

  it("offers nothing on a paid order's page, whatever the account holds", async () => {
    paidOnline = true;
    renderDetail();
    await screen.findByRole('heading', { name: 'Online payment' });
    expect(screen.queryByRole('button', { name: /unpaid order/ })).toBeNull();
  });

  it('on the list searched by the account, offers nothing without more than one unpaid order on one date', async () => {
    onOneDate = 1;
    renderAt('/all-admin-orders?q=hoarder%40example.test', <Orders />);
    await screen.findByRole('table');
    expect(screen.queryByRole('button', { name: /unpaid order/ })).toBeNull();
  });

  it('offers nothing when the account has no unpaid open order', async () => {
    unpaid = 0;
    renderDetail();
    await screen.findByText('Hoarder');
    expect(screen.queryByRole('button', { name: /unpaid order/ })).toBeNull();
  });

  it("on the orders list searched by the account's email, cancels them in one step", async () => {
    renderAt('/all-admin-orders?q=hoarder%40example.test', <Orders />);
    await cancelAllThree();
  });

  it('offers nothing on the list when the search names no account', async () => {
    renderAt('/all-admin-orders?q=hoarder', <Orders />);
    await screen.findByRole('table');
    expect(screen.queryByRole('button', { name: /unpaid order/ })).toBeNull();
  });
});
