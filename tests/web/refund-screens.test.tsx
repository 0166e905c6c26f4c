import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminOrderDetail } from '../../domain/admin-answers.js';
import type { Dashboard as DashboardData } from '../../domain/admin-dashboard.js';
import { adminMessages } from '../../domain/admin-messages.js';
import type { ShopperOrder } from '../../domain/order-tracking.js';
import type { OrderHistoryRow } from '../../domain/orders.js';
import { type OrderPayment, type Refund, refundMessages, type ShopperRefund } from '../../domain/refunds.js';
import { db } from '../../sw/db.js';
import Dashboard from '../../web/admin/Dashboard.js';
import { ConfirmHost, SignInAgain } from '../../web/admin/dialogs.js';
import { LeaveGuardProvider } from '../../web/admin/leave-guard.js';
import OrderDetail from '../../web/admin/OrderDetail.js';
import Orders from '../../web/admin/Orders.js';
import { AlertsProvider } from '../../web/components/Alerts.js';
import { setPwaState } from '../../web/pwa/pwa-state.js';
import { renderAt as renderApp, resetStore } from './storefront-fixtures.js';

/**
 * Refunds on the screens (issue 39, item 4). The admin's order page, against a fake server (the
 * style of admin-cancel-unpaid.test.tsx): the online payment with its figures and refunds (a failed
 * one in red and in words, with the provider's reason), the partial refund form (sent as typed,
 * the button off while it is sent, the answer's state shown; too large is the server's 422 under
 * the field and nothing else changes; a bad amount or no reason sends nothing), Cash on Delivery
 * with no form, and the cancel of a paid order that says it refunds. The dashboard's money block.
 * The shopper's order page and My Orders from the copies on the device, offline (the style of
 * order-screens.test.tsx): "Refund of ₹450 processed on 27 Nov".
 */
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ok = (data: unknown, sys_message = 'Success') => json({ isSuccess: true, data, sys_message });
const refused = (status: number, sys_message: string) =>
  json({ isSuccess: false, data: null, sys_message }, status);

// Node's Request (under jsdom) does not resolve a path against the page as a browser's does.
const NodeRequest = globalThis.Request;
class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' && input.startsWith('/') ? new URL(input, location.href) : input, init);
  }
}

const FAILURE = 'The bank did not accept the refund: the account is closed.';
const processed450: Refund = {
  refundID: 1,
  kind: 'partial',
  amount: 450,
  reason: 'Cake arrived late',
  status: 'processed',
  failureReason: null,
  providerRefundID: 'rfnd_1',
  by: 'owner@example.test',
  createdAt: '2026-11-26T10:00:00.000Z',
  processedAt: '2026-11-27T06:30:00.000Z',
};
const failed200: Refund = {
  refundID: 2,
  kind: 'partial',
  amount: 200,
  reason: 'Candles missing',
  status: 'failed',
  failureReason: FAILURE,
  providerRefundID: 'rfnd_2',
  by: 'owner@example.test',
  createdAt: '2026-11-27T08:00:00.000Z',
  processedAt: null,
};

const paidPayment = (): OrderPayment => ({
  provider: 'razorpay',
  providerOrderID: 'order_R1',
  paymentID: 'pay_P1',
  status: 'captured',
  paid: 1449,
  refunded: 450,
  refundable: 999,
  refunds: [processed450, failed200],
});

function adminOrder(payment: OrderPayment | null): AdminOrderDetail {
  return {
    payment,
    orderID: 41,
    status: 'paid',
    nextStatuses: ['confirmed', 'cancelled'],
    userEmail: 'asha@example.test',
    customerName: 'Asha Verma',
    customerEmail: 'asha@example.test',
    customerPhone: '9876543210',
    customerAddress: 'House 12, Sector 70',
    city: 'Mohali',
    state: 'Punjab',
    pincode: '160062',
    subtotal: 1199,
    deliveryCharge: 200,
    discount: 200,
    totalAmount: 1449,
    paymentMethod: payment ? 'Razorpay' : 'Cash on Delivery',
    orderDate: '2026-11-26T09:00:00.000Z',
    deliveryDate: '2026-11-28',
    deliverySlot: { slotID: 3, name: 'Midnight', start: 1380, end: 1440 },
    slotCharge: 250,
    items: [],
    recipient: null,
    hidePrice: false,
    hideSender: false,
    card: null,
    couponCode: 'SAVE200',
    paymentId: payment?.paymentID ?? null,
    providerOrderId: payment?.providerOrderID ?? null,
    lines: [],
    timeline: [],
    userID: 9,
    accountUnpaidOpen: 0,
    accountUnpaidOnOneDate: 0,
  };
}

/** What the fake server holds and was sent; `refundAnswer` answers a refund (held until it resolves). */
let order: AdminOrderDetail;
let sent: { method: string; path: string; body: unknown }[];
let refundAnswer: () => Promise<Response>;
let dashboard: DashboardData;

function stubServer() {
  vi.stubGlobal('Request', PageRequest);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(String(input), init);
      const path = new URL(req.url).pathname;
      if (req.method !== 'GET') sent.push({ method: req.method, path, body: JSON.parse(await req.text()) });
      if (path === '/api/admin/orders/41' && req.method === 'GET') return ok(order);
      if (path === '/api/admin/orders' && req.method === 'GET') {
        const {
          lines: _l,
          timeline: _t,
          couponCode: _c,
          paymentId: _p,
          providerOrderId: _o,
          userID: _u,
          accountUnpaidOpen: _a,
          payment: _pay,
          ...summary
        } = order;
        return ok({ items: [summary], total: 1, page: 1, pageSize: 20, account: null });
      }
      if (path === '/api/admin/delivery-slots') return ok({ slots: [], closures: [] });
      if (path === '/api/admin/orders/41/refunds' && req.method === 'POST') return refundAnswer();
      if (path === '/api/admin/orders/41/status' && req.method === 'PUT') {
        order = { ...order, status: 'cancelled', nextStatuses: [] };
        return ok(null, adminMessages.statusMoved(41, 'cancelled'));
      }
      if (path === '/api/admin/dashboard') return ok(dashboard);
      if (path === '/api/admin/backups')
        return ok({ backups: [], newestAt: null, now: Date.now(), warning: null, schedule: null });
      if (path === '/api/admin/newsletter') return ok({ confirmed: 0, pending: 0 });
      return refused(404, 'Not here.');
    }),
  );
}

function renderAdmin(element: ReactElement) {
  const tree = (
    <AlertsProvider>
      <LeaveGuardProvider>
        <SignInAgain>
          {element}
          <ConfirmHost />
        </SignInAgain>
      </LeaveGuardProvider>
    </AlertsProvider>
  );
  return render(
    <RouterProvider router={createMemoryRouter([{ path: '*', element: tree }], { initialEntries: ['/'] })} />,
  );
}

const paymentPanel = async () => {
  const heading = await screen.findByRole('heading', { level: 2, name: 'Online payment' });
  const section = heading.closest('section');
  if (!section) throw new Error('no online payment section');
  return section;
};
const figures = (panel: HTMLElement) =>
  ['payment-paid', 'payment-refunded', 'payment-refundable'].map(
    (id) => within(panel).getByTestId(id).textContent,
  );
const alertText = (text: string) => screen.getByText(text, { selector: '.alerts *' });

describe("the admin's order page: an online payment and its refunds", () => {
  beforeEach(() => {
    order = adminOrder(paidPayment());
    sent = [];
    refundAnswer = async () => refused(500, 'No answer was set.');
    stubServer();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the provider, the payment, its figures and each refund; a failed one in red, saying Failed and why', async () => {
    renderAdmin(<OrderDetail id="41" />);
    const panel = await paymentPanel();
    const facts = within(panel).getByTestId('online-payment');
    expect(within(facts).getByText('Razorpay')).toBeTruthy();
    expect(within(facts).getByText('pay_P1')).toBeTruthy();
    // Money went back in part: the state says so, never the provider's bare "captured".
    expect(within(facts).getByTestId('payment-state').textContent).toBe(
      'Partly refunded: ₹450 of ₹1,449 given back',
    );
    expect(within(facts).queryByText('captured')).toBeNull();
    expect(figures(panel)).toEqual(['₹1,449', '₹450', '₹999']);

    const done = within(panel).getByTestId('refund-1');
    expect(done.className).not.toContain('failed');
    expect(within(done).getByText('₹450')).toBeTruthy();
    expect(within(done).getByText('Cake arrived late')).toBeTruthy();
    expect(within(done).getByText('owner@example.test')).toBeTruthy();
    expect(within(done).getByText(/^Processed/)).toBeTruthy();

    const failed = within(panel).getByTestId('refund-2');
    expect(failed.className).toBe('admin-refund--failed');
    const state = within(failed)
      .getByText(/^Failed/, { selector: 'strong' })
      .closest('span');
    // In words, not colour alone: "Failed:" and the provider's reason, in the red span.
    expect(state?.className).toBe('admin-refund__failed');
    expect(state?.textContent).toBe(`Failed: ${FAILURE}`);
  });

  it('a partial refund is sent as typed, the button is off while it goes, and the answer is shown', async () => {
    let answer: (r: Response) => void = () => {};
    refundAnswer = () => new Promise<Response>((resolve) => (answer = resolve));
    renderAdmin(<OrderDetail id="41" />);
    const panel = await paymentPanel();
    const form = within(panel).getByRole('form', { name: 'Refund part of this payment' });
    const amount = within(form).getByLabelText('Amount (₹)') as HTMLInputElement;
    expect(amount.max).toBe('999');
    expect(within(form).getByText(adminMessages.refundableHint(999))).toBeTruthy();
    fireEvent.change(amount, { target: { value: '300' } });
    fireEvent.change(within(form).getByLabelText('Reason'), { target: { value: '  Wrong flavour  ' } });
    const button = within(form).getByRole('button', { name: 'Refund' });
    await act(async () => {
      fireEvent.click(button);
    });
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      method: 'POST',
      path: '/api/admin/orders/41/refunds',
      body: { amount: 300, reason: 'Wrong flavour' },
    });
    const busy = within(form).getByRole('button', { name: 'Refunding…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);

    const pending300: Refund = {
      ...processed450,
      refundID: 3,
      amount: 300,
      reason: 'Wrong flavour',
      status: 'pending',
      processedAt: null,
      providerRefundID: null,
      createdAt: '2026-11-27T12:00:00.000Z',
    };
    const after: OrderPayment = {
      ...paidPayment(),
      refunded: 750,
      refundable: 699,
      refunds: [processed450, failed200, pending300],
    };
    await act(async () => {
      answer(json({ isSuccess: true, data: after, sys_message: refundMessages.refundStarted(300) }, 201));
    });
    await waitFor(() => expect(figures(panel)).toEqual(['₹1,449', '₹750', '₹699']));
    expect(alertText(refundMessages.refundStarted(300))).toBeTruthy();
    expect(within(within(panel).getByTestId('refund-3')).getByText('In progress')).toBeTruthy();
    expect(amount.value).toBe('');
    expect((within(form).getByRole('button', { name: 'Refund' }) as HTMLButtonElement).disabled).toBe(false);
    expect(amount.max).toBe('699');
  });

  it("too large: the server's 422 is said under the amount, what was typed stays, and nothing else changes", async () => {
    const tooLarge = refundMessages.tooLarge(999, 1449);
    refundAnswer = async () => refused(422, tooLarge);
    renderAdmin(<OrderDetail id="41" />);
    const panel = await paymentPanel();
    const form = within(panel).getByRole('form', { name: 'Refund part of this payment' });
    const amount = within(form).getByLabelText('Amount (₹)') as HTMLInputElement;
    fireEvent.change(amount, { target: { value: '5000' } });
    fireEvent.change(within(form).getByLabelText('Reason'), { target: { value: 'Goodwill' } });
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Refund' }));
    });
    const problem = await within(form).findByTestId('refund-amount-problem');
    expect(problem.textContent).toBe(tooLarge);
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(amount.getAttribute('aria-describedby')?.split(' ')).toContain(problem.id);
    expect(document.activeElement).toBe(amount);
    expect(sent.map((s) => s.body)).toEqual([{ amount: 5000, reason: 'Goodwill' }]);
    expect(figures(panel)).toEqual(['₹1,449', '₹450', '₹999']);
    expect(within(panel).getAllByRole('row')).toHaveLength(3);
    expect(amount.value).toBe('5000');
    expect(screen.queryByText(/started/, { selector: '.alerts *' })).toBeNull();
  });

  it('a refund still in progress (409) is said under the form', async () => {
    refundAnswer = async () => refused(409, refundMessages.inProgress);
    renderAdmin(<OrderDetail id="41" />);
    const panel = await paymentPanel();
    const form = within(panel).getByRole('form', { name: 'Refund part of this payment' });
    fireEvent.change(within(form).getByLabelText('Amount (₹)'), { target: { value: '100' } });
    fireEvent.change(within(form).getByLabelText('Reason'), { target: { value: 'Goodwill' } });
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Refund' }));
    });
    expect((await within(form).findByRole('alert')).textContent).toBe(refundMessages.inProgress);
    expect(within(form).queryByTestId('refund-amount-problem')).toBeNull();
    expect(figures(panel)).toEqual(['₹1,449', '₹450', '₹999']);
  });

  it.each([
    ['', 'Goodwill', 'amount', 'The amount must be a number of rupees.'],
    ['0', 'Goodwill', 'amount', 'The amount must be at least ₹1.'],
    ['12.5', 'Goodwill', 'amount', 'The amount must be whole rupees.'],
    ['100', '   ', 'reason', 'Say why the money goes back.'],
  ])(
    'amount %j with reason %j: the %s is refused on the page and nothing is sent',
    async (a, r, field, text) => {
      renderAdmin(<OrderDetail id="41" />);
      const panel = await paymentPanel();
      const form = within(panel).getByRole('form', { name: 'Refund part of this payment' });
      fireEvent.change(within(form).getByLabelText('Amount (₹)'), { target: { value: a } });
      fireEvent.change(within(form).getByLabelText('Reason'), { target: { value: r } });
      await act(async () => {
        fireEvent.click(within(form).getByRole('button', { name: 'Refund' }));
      });
      const box = within(form).getByLabelText(field === 'amount' ? 'Amount (₹)' : 'Reason');
      expect(box.getAttribute('aria-invalid')).toBe('true');
      expect(within(form).getByText(text)).toBeTruthy();
      expect(sent).toEqual([]);
    },
  );

  it('nothing left to refund: says so, and offers no form', async () => {
    order = adminOrder({ ...paidPayment(), refunded: 1449, refundable: 0 });
    renderAdmin(<OrderDetail id="41" />);
    const panel = await paymentPanel();
    expect(within(panel).getByText(adminMessages.refundableHint(0))).toBeTruthy();
    expect(within(panel).queryByRole('form')).toBeNull();
  });

  it.each([
    [
      'a full refund, processed',
      { refunded: 1449, refundable: 0, refunds: [{ ...processed450, amount: 1449 }] },
      'Refunded in full, ₹1,449',
    ],
    [
      'a full refund still pending',
      {
        refunded: 1449,
        refundable: 0,
        refunds: [{ ...processed450, amount: 1449, status: 'pending' as const, processedAt: null }],
      },
      'Refunded in full, ₹1,449 (a refund is still on its way)',
    ],
    ['no refund', { refunded: 0, refundable: 1449, refunds: [] }, 'Paid'],
  ])('says the payment is as it is after %s, not "captured"', async (_what, change, said) => {
    order = { ...adminOrder({ ...paidPayment(), ...change }), status: 'cancelled', nextStatuses: [] };
    renderAdmin(<OrderDetail id="41" />);
    const panel = await paymentPanel();
    expect(within(panel).getByTestId('payment-state').textContent).toBe(said);
  });

  it('Cash on Delivery: no online payment, no refund form; the cancel asks "Cancel the order" or "Keep the order"', async () => {
    order = adminOrder(null);
    renderAdmin(<OrderDetail id="41" />);
    await screen.findByText('Asha Verma');
    expect(screen.queryByRole('heading', { name: 'Online payment' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Refund part of this payment' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Move to'), { target: { value: 'cancelled' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update status' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(adminMessages.cancelDialog(41, null).question)).toBeTruthy();
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Keep the order', 'Cancel the order']);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Keep the order' }));
    });
    expect(sent).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Update status' }));
    dialog = await screen.findByRole('dialog');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel the order' }));
    });
    await waitFor(() => expect(sent.map((s) => s.path)).toEqual(['/api/admin/orders/41/status']));
    expect(screen.queryByText(/refunded/)).toBeNull();
  });

  it('cancelling a paid order asks first, saying the payment is refunded in full; "Keep the order" sends nothing', async () => {
    renderAdmin(<OrderDetail id="41" />);
    await paymentPanel();
    fireEvent.change(screen.getByLabelText('Move to'), { target: { value: 'cancelled' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update status' }));
    let dialog = await screen.findByRole('dialog');
    const question = adminMessages.cancelPaidConfirm(41, 999, 1449);
    expect(question).toContain('refunded');
    expect(within(dialog).getByText(question)).toBeTruthy();
    // Each button says what it does: never a bare "Cancel" that keeps the order.
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Keep the order', 'Cancel and refund ₹999']);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Keep the order' }));
    });
    expect(sent).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Update status' }));
    dialog = await screen.findByRole('dialog');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel and refund ₹999' }));
    });
    await waitFor(() =>
      expect(sent).toEqual([
        { method: 'PUT', path: '/api/admin/orders/41/status', body: { status: 'cancelled', note: '' } },
      ]),
    );
    expect(adminMessages.cancelPaidConfirm(41, 1449, 1449)).toBe(
      'Cancel order #41? It was paid online: the payment of ₹1,449 will be refunded in full.',
    );
  });
});

describe('the orders list: cancelling an order paid online', () => {
  beforeEach(() => {
    sent = [];
    stubServer();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it.each([
    ['paid online', true, adminMessages.cancelPaidConfirm(41, 1449, 1449), 'Cancel and refund ₹1,449'],
    ['Cash on Delivery', false, adminMessages.cancelDialog(41, null).question, 'Cancel the order'],
  ])('%s: the confirm says what happens to the money', async (_what, online, question, yes) => {
    order = adminOrder(online ? paidPayment() : null);
    renderAdmin(<Orders />);
    fireEvent.click(await screen.findByRole('button', { name: 'Move order 41 to cancelled' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(question)).toBeTruthy();
    expect(question.includes('refunded in full')).toBe(online);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: yes }));
    });
    await waitFor(() =>
      expect(sent).toEqual([
        { method: 'PUT', path: '/api/admin/orders/41/status', body: { status: 'cancelled' } },
      ]),
    );
  });
});

describe("the dashboard's money", () => {
  const base = (money: DashboardData['money']): DashboardData => ({
    today: '2026-11-27',
    ordersToday: 0,
    revenueToday: 0,
    orders7: 0,
    revenue7: 0,
    orders30: 0,
    revenue30: 0,
    waiting: { placed: 0, paid: 0, confirmed: 0, 'out for delivery': 0 },
    products: 0,
    categories: 0,
    series: [],
    latest: [],
    deliveries: [],
    bestSellers: [],
    money,
  });
  beforeEach(() => {
    sent = [];
    stubServer();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('all well: 0 payments without an order said plainly, no warnings', async () => {
    dashboard = base({
      paymentsWithoutOrder: 0,
      refundsPending: 0,
      refundsFailed: 0,
      refunds30: 0,
      refunded30: 0,
      couponOrders30: 0,
      discount30: 0,
    });
    renderAdmin(<Dashboard />);
    const block = await screen.findByRole('region', { name: 'Money' });
    expect(within(block).getByTestId('money-without-order').textContent).toBe('0');
    expect(within(block).getByTestId('money-refunds-pending').textContent).toBe('0');
    expect(within(block).getByTestId('money-refunds-failed').textContent).toBe('0');
    expect(within(block).getByTestId('money-refunds-30').textContent).toBe('0 refunds, ₹0');
    expect(within(block).getByTestId('money-coupons-30').textContent).toBe('0 orders, ₹0 off');
    expect(block.querySelector('.admin-money__row--warn')).toBeNull();
    expect(within(block).queryByTestId('money-without-order-warning')).toBeNull();
  });

  it('a payment without an order and a failed refund are warnings in words; the 30 days count and sum refunds', async () => {
    dashboard = base({
      paymentsWithoutOrder: 1,
      refundsPending: 2,
      refundsFailed: 1,
      refunds30: 3,
      refunded30: 1350,
      couponOrders30: 2,
      discount30: 350,
    });
    renderAdmin(<Dashboard />);
    const block = await screen.findByRole('region', { name: 'Money' });
    const row = (id: string) => within(block).getByTestId(id).closest('.admin-money__row');
    expect(within(block).getByTestId('money-without-order').textContent).toBe('1');
    expect(within(block).getByTestId('money-without-order-warning').textContent).toBe(
      adminMessages.paymentsWithoutOrderWarn,
    );
    expect(row('money-without-order')?.className).toContain('admin-money__row--warn');
    expect(within(block).getByTestId('money-refunds-failed-warning').textContent).toBe(
      adminMessages.refundsFailedWarn,
    );
    // In progress is the provider's ordinary pace, not a warning.
    expect(within(block).getByTestId('money-refunds-pending').textContent).toBe('2');
    expect(row('money-refunds-pending')?.className).not.toContain('warn');
    expect(within(block).getByTestId('money-refunds-30').textContent).toBe('3 refunds, ₹1,350');
  });
});

// The shopper's screens are lazy chunks: their first import in jsdom takes seconds.
configure({ asyncUtilTimeout: 15_000 });

function token(userId: number): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256' })}.${b64({ sub: userId, exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
}
function signIn(): void {
  localStorage.setItem('token', token(7));
  localStorage.setItem('userId', '7');
  localStorage.setItem('email', 'asha@example.com');
  localStorage.setItem('phone', '9876543210');
}

const shopperRefunds: ShopperRefund[] = [
  {
    amount: 450,
    status: 'processed',
    createdAt: '2026-11-26T10:00:00.000Z',
    processedAt: '2026-11-27T06:30:00.000Z',
  },
  // A failed one is the shop's to make again: the shopper reads it as on its way, never "failed".
  { amount: 200, status: 'failed', createdAt: '2026-11-27T08:00:00.000Z', processedAt: null },
];
const LINES = ['Refund of ₹450 processed on 27 Nov', 'Refund of ₹200 on its way (started 27 Nov)'];

describe("the shopper's refunds", { timeout: 30_000 }, () => {
  beforeEach(async () => {
    await resetStore();
    setPwaState({ offline: true });
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
  });
  afterEach(() => {
    cleanup();
    setPwaState({ offline: false });
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
  });

  const shopperOrder: ShopperOrder = {
    refunds: shopperRefunds,
    orderID: 41,
    status: 'cancelled',
    orderDate: '2026-11-26T09:00:00.000Z',
    deliveryDate: '2026-11-28',
    deliverySlot: null,
    customerName: 'Asha Verma',
    customerPhone: '9876543210',
    customerAddress: 'House 12, Sector 70',
    state: 'Punjab',
    city: 'Mohali',
    pincode: '160062',
    paymentMethod: 'Razorpay',
    subtotal: 1199,
    deliveryCharge: 200,
    slotCharge: 0,
    discount: 0,
    couponCode: null,
    totalAmount: 1399,
    lines: [],
    timeline: [{ status: 'placed', at: '2026-11-26T09:00:00.000Z' }],
    recipient: null,
    hidePrice: false,
    hideSender: false,
    card: null,
  };

  it('the order page lists each refund in the payment part, and a copy kept before refunds shows none', async () => {
    await db.orderDetails.put({
      orderID: 41,
      userId: 7,
      order: shopperOrder,
      fetchedAt: Date.now(),
      etag: null,
    });
    signIn();
    renderApp('/my-orders/41');
    const payment = (await screen.findByRole('heading', { level: 2, name: 'Payment' })).closest('section');
    if (!payment) throw new Error('no payment part');
    const list = within(payment).getByRole('list', { name: 'Refunds' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(LINES);
    expect(screen.queryByText(/failed/i)).toBeNull();
    cleanup();

    const { refunds: _r, ...older } = shopperOrder;
    await db.orderDetails.put({
      orderID: 41,
      userId: 7,
      order: older as ShopperOrder,
      fetchedAt: Date.now(),
      etag: null,
    });
    renderApp('/my-orders/41');
    await screen.findByRole('heading', { level: 2, name: 'Payment' });
    expect(screen.queryByRole('list', { name: 'Refunds' })).toBeNull();
  });

  it('My Orders shows the refunds once per order, on its card and its first table row', async () => {
    const row = (over: Partial<OrderHistoryRow>): OrderHistoryRow & { refunds?: ShopperRefund[] } => ({
      orderID: 41,
      productName: 'Red Roses (Bunch)',
      productTitle: 'Red Roses',
      variationName: null,
      variationValue: '',
      unitPrice: 599,
      productImage: '/media/p5-320.webp',
      quantity: 1,
      totalAmount: 1399,
      orderDate: '2026-11-26T09:00:00.000Z',
      status: 'cancelled',
      deliveryDate: '2026-11-28',
      paymentMethod: 'Razorpay',
      deliverySlot: null,
      slotCharge: 0,
      cakeMessage: null,
      photoID: null,
      recipient: null,
      hidePrice: false,
      hideSender: false,
      card: null,
      ...over,
    });
    await db.orderHistory.put({
      userId: 7,
      rows: [
        { ...row({}), refunds: shopperRefunds },
        {
          ...row({ productName: 'Chocolate Cake', productTitle: 'Chocolate Cake' }),
          refunds: shopperRefunds,
        },
        // Cash on Delivery: no refunds; a copy kept before refunds has no list at all.
        row({ orderID: 12, paymentMethod: 'Cash on Delivery' }),
      ],
      fetchedAt: Date.now(),
    });
    signIn();
    renderApp('/my-orders');
    const card = (await screen.findByRole('link', { name: 'Order #41' })).closest('li');
    if (!(card instanceof HTMLElement)) throw new Error('no card for order 41');
    const cardList = within(card).getByRole('list', { name: 'Refunds' });
    expect(
      within(cardList)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(LINES);
    const other = screen.getByRole('link', { name: 'Order #12' }).closest('li');
    if (!(other instanceof HTMLElement)) throw new Error('no card for order 12');
    expect(within(other).queryByRole('list', { name: 'Refunds' })).toBeNull();

    const table = screen.getByRole('table');
    const tableLists = within(table).getAllByRole('list', { name: 'Refunds' });
    expect(tableLists).toHaveLength(1);
    expect(tableLists[0]?.closest('tr')?.querySelector('a')?.textContent).toBe('41');
    expect(screen.getAllByText(LINES[0] ?? '')).toHaveLength(2);
  });
});
