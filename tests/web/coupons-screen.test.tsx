import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import axeCore from 'axe-core';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CouponSummary, couponFormMessages } from '../../domain/coupons.js';
import Coupons from '../../web/admin/Coupons.js';
import { couponTexts as t } from '../../web/admin/coupon-forms.js';
import { ConfirmHost, SignInAgain } from '../../web/admin/dialogs.js';
import { LeaveGuardProvider } from '../../web/admin/leave-guard.js';
import { AlertsProvider } from '../../web/components/Alerts.js';

/**
 * Settings → Coupons against a fake server that keeps what it is sent: the list's columns in the
 * owner's words (India time, rupees, the state as a word), End now only where a coupon is not ended
 * and only after asking, a percentage coupon made through the form (its times typed in India time,
 * sent as epoch ms), an edit that sends no code, the server's refusal at the field it names, and a
 * problem found on the device shown at its field with nothing sent.
 */
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ok = (data: unknown, sys_message = 'Success') => json({ isSuccess: true, data, sys_message });

// Node's Request (under jsdom) does not resolve a path against the page as a browser's does.
const NodeRequest = globalThis.Request;
class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' && input.startsWith('/') ? new URL(input, location.href) : input, init);
  }
}

const coupon = (c: Partial<CouponSummary> & Pick<CouponSummary, 'code' | 'off'>): CouponSummary => ({
  minItems: 0,
  firstOrderOnly: false,
  maxUses: null,
  perAccount: 1,
  startsAt: null,
  endsAt: null,
  state: 'live',
  uses: 0,
  discountGiven: 0,
  createdAt: Date.UTC(2026, 9, 1),
  ...c,
});
const LIST: CouponSummary[] = [
  coupon({
    code: 'SAVE200',
    off: { kind: 'flat', amount: 200 },
    minItems: 999,
    firstOrderOnly: true,
    uses: 3,
    discountGiven: 600,
  }),
  coupon({
    code: 'DIWALI10',
    off: { kind: 'percent', percent: 10, cap: 300 },
    maxUses: 100,
    perAccount: 2,
    // 2 Nov 2026 and 11 Nov 2026, midnight in India.
    startsAt: Date.UTC(2026, 10, 1, 18, 30),
    endsAt: Date.UTC(2026, 10, 10, 18, 30),
    state: 'scheduled',
  }),
  coupon({
    code: 'WELCOME50',
    off: { kind: 'flat', amount: 50 },
    maxUses: 40,
    endsAt: Date.UTC(2026, 0, 31, 18, 30),
    state: 'ended',
    uses: 40,
    discountGiven: 2000,
  }),
];

let coupons: CouponSummary[];
/** Every write the screen sent: method, path and body. */
let sent: { method: string; path: string; body: unknown }[];
/** A refusal the next write gets instead of its answer. */
let refuse: { status: number; message: string; data: unknown } | null;

beforeEach(() => {
  coupons = LIST.map((c) => ({ ...c }));
  sent = [];
  refuse = null;
  vi.stubGlobal('Request', PageRequest);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(String(input), init);
      const path = new URL(req.url).pathname;
      if (req.method === 'GET' && path === '/api/admin/coupons') return ok(coupons);
      const text = await req.text();
      const body = text ? JSON.parse(text) : null;
      sent.push({ method: req.method, path, body });
      if (refuse)
        return json({ isSuccess: false, data: refuse.data, sys_message: refuse.message }, refuse.status);
      if (req.method === 'POST' && path === '/api/admin/coupons') {
        const made = coupon({ ...body, state: 'scheduled' });
        coupons = [made, ...coupons];
        return ok(made, couponFormMessages.created(made.code));
      }
      const code = path.match(/^\/api\/admin\/coupons\/([A-Z0-9]+)(\/end)?$/);
      const found = coupons.find((c) => c.code === code?.[1]);
      if (found && code?.[2] && req.method === 'POST') {
        Object.assign(found, { state: 'ended', endsAt: Date.UTC(2026, 10, 20) });
        return ok(found, couponFormMessages.ended(found.code));
      }
      if (found && req.method === 'PUT') {
        Object.assign(found, body);
        return ok(found, couponFormMessages.saved(found.code));
      }
      return json({ isSuccess: false, data: null, sys_message: 'Not here.' }, 404);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderCoupons() {
  const element = (
    <AlertsProvider>
      <LeaveGuardProvider>
        <SignInAgain>
          <Coupons />
          <ConfirmHost />
        </SignInAgain>
      </LeaveGuardProvider>
    </AlertsProvider>
  );
  render(
    <RouterProvider
      router={createMemoryRouter([{ path: '*', element }], { initialEntries: ['/coupons'] })}
    />,
  );
}
async function openCoupons() {
  renderCoupons();
  await screen.findAllByTestId('coupon-row');
}

const rowOf = (code: string) => {
  const row = screen.getAllByTestId('coupon-row').find((r) => within(r).queryByText(code));
  if (!row) throw new Error(`no row for ${code}`);
  return row;
};
const cellsOf = (code: string) => [...(rowOf(code) as HTMLTableRowElement).cells].map((c) => c.textContent);
const alertWith = (text: string) =>
  waitFor(() => expect(screen.getByText(text, { selector: '.alerts *' })).toBeTruthy());
/** The problem a field shows: marked invalid, and the message it is described by. */
const problemOf = (field: HTMLElement) => {
  expect(field.getAttribute('aria-invalid')).toBe('true');
  return (field.getAttribute('aria-describedby')?.split(' ') ?? [])
    .map((id) => document.getElementById(id))
    .filter((el) => el?.classList.contains('admin-error'))
    .map((el) => el?.textContent)
    .join(' ');
};
const openNewForm = () => {
  fireEvent.click(screen.getByRole('button', { name: t.newCoupon }));
  const form = screen.getByRole('form', { name: t.newCoupon });
  return { form, field: (label: string) => within(form).getByLabelText(label) };
};
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

describe('Settings → Coupons', () => {
  it('lists each coupon in the owner’s words, End now only where it has not ended', async () => {
    await openCoupons();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual([
      'Code',
      'Takes off',
      'Conditions',
      'Window',
      'Uses',
      'Discount given',
      'State',
      'Actions',
    ]);
    expect(cellsOf('SAVE200').slice(0, 7)).toEqual([
      'SAVE200',
      '₹200',
      'first order only · items from ₹999 · 1 per account',
      'Always',
      '3',
      '₹600',
      'Live',
    ]);
    expect(cellsOf('DIWALI10').slice(0, 7)).toEqual([
      'DIWALI10',
      '10% up to ₹300',
      '2 per account · 100 in all',
      'From 2 Nov 2026, 12:00 am until 11 Nov 2026, 12:00 am',
      '0 of 100',
      '₹0',
      'Scheduled',
    ]);
    expect(cellsOf('WELCOME50').slice(0, 7)).toEqual([
      'WELCOME50',
      '₹50',
      '1 per account · 40 in all',
      'until 1 Feb 2026, 12:00 am',
      '40 of 40',
      '₹2,000',
      'Ended',
    ]);
    for (const code of ['SAVE200', 'DIWALI10', 'WELCOME50'])
      expect(within(rowOf(code)).getByRole('button', { name: `Edit ${code}` }).textContent).toBe('Edit');
    expect(
      screen.getAllByRole('button', { name: /^End .* now$/ }).map((b) => b.getAttribute('aria-label')),
    ).toEqual(['End SAVE200 now', 'End DIWALI10 now']);
    expect(screen.queryByRole('button', { name: /delete/i })).toBeNull();

    const table = screen.getByRole('table', { name: t.caption });
    expect(table.closest('.admin-table-wrap')).not.toBeNull();
    const found = await axeCore.run(document.body, { rules: { 'color-contrast': { enabled: false } } });
    expect(found.violations.map((x) => x.id)).toEqual([]);
  });

  it('says so when there are no coupons yet', async () => {
    coupons = [];
    renderCoupons();
    expect(await screen.findByText(t.empty)).toBeTruthy();
  });

  it('asks before ending a coupon, then ends it and says so', async () => {
    await openCoupons();
    fireEvent.click(screen.getByRole('button', { name: 'End DIWALI10 now' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(t.endConfirm('DIWALI10'))).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    });
    expect(sent).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'End DIWALI10 now' }));
    dialog = await screen.findByRole('dialog');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: t.endNow }));
    });
    await alertWith(couponFormMessages.ended('DIWALI10'));
    expect(sent).toEqual([{ method: 'POST', path: '/api/admin/coupons/DIWALI10/end', body: null }]);
    await waitFor(() => expect(within(rowOf('DIWALI10')).queryByRole('button', { name: /^End/ })).toBeNull());
    expect(cellsOf('DIWALI10')[6]).toBe('Ended');
  });

  it('makes a percentage coupon, its times typed in India time and sent as epoch ms', async () => {
    await openCoupons();
    const { form, field } = openNewForm();
    expect(document.activeElement).toBe(field('Code'));
    expect(field('Code').getAttribute('aria-describedby')).toBeTruthy();
    expect(within(form).getByText(t.codeHelp)).toBeTruthy();
    expect(within(form).getByRole('group', { name: t.takesOff })).toBeTruthy();
    expect(within(form).queryByLabelText('Percentage off')).toBeNull();
    expect((field('Uses per account') as HTMLInputElement).value).toBe('1');
    expect((field('Minimum order, items (₹)') as HTMLInputElement).value).toBe('0');
    expect(field('Amount off (₹)').getAttribute('inputmode')).toBe('numeric');

    type(field('Code'), ' newyear25 ');
    fireEvent.click(field(t.percent));
    expect(within(form).queryByLabelText('Amount off (₹)')).toBeNull();
    type(field('Percentage off'), '25');
    type(field('Up to (₹)'), '500');
    type(field('Minimum order, items (₹)'), '1499');
    fireEvent.click(field('First order only'));
    type(field('Uses in all'), '200');
    expect(field('Starts (India time)').getAttribute('type')).toBe('datetime-local');
    type(field('Starts (India time)'), '2026-12-01T10:00');
    type(field('Ends (India time)'), '2027-01-01T00:00');
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: t.create }));
    });
    await alertWith(couponFormMessages.created('NEWYEAR25'));
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/api/admin/coupons',
        body: {
          code: 'NEWYEAR25',
          off: { kind: 'percent', percent: 25, cap: 500 },
          minItems: 1499,
          firstOrderOnly: true,
          maxUses: 200,
          perAccount: 1,
          startsAt: Date.UTC(2026, 11, 1, 4, 30),
          endsAt: Date.UTC(2026, 11, 31, 18, 30),
        },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('form', { name: t.newCoupon })).toBeNull());
    await waitFor(() => expect(cellsOf('NEWYEAR25')[1]).toBe('25% up to ₹500'));
    expect(cellsOf('NEWYEAR25')[3]).toBe('From 1 Dec 2026, 10:00 am until 1 Jan 2027, 12:00 am');
  });

  it('edits a coupon’s terms without its code, its times read back in India time', async () => {
    await openCoupons();
    fireEvent.click(screen.getByRole('button', { name: 'Edit DIWALI10' }));
    const form = screen.getByRole('form', { name: 'Edit DIWALI10' });
    expect(within(form).queryByLabelText('Code')).toBeNull();
    expect((within(form).getByLabelText(t.percent) as HTMLInputElement).checked).toBe(true);
    expect((within(form).getByLabelText('Starts (India time)') as HTMLInputElement).value).toBe(
      '2026-11-02T00:00',
    );
    type(within(form).getByLabelText('Up to (₹)'), '250');
    type(within(form).getByLabelText('Uses in all'), '');
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: t.save }));
    });
    await alertWith(couponFormMessages.saved('DIWALI10'));
    expect(sent).toEqual([
      {
        method: 'PUT',
        path: '/api/admin/coupons/DIWALI10',
        body: {
          off: { kind: 'percent', percent: 10, cap: 250 },
          minItems: 0,
          firstOrderOnly: false,
          maxUses: null,
          perAccount: 2,
          startsAt: Date.UTC(2026, 10, 1, 18, 30),
          endsAt: Date.UTC(2026, 10, 10, 18, 30),
        },
      },
    ]);
  });

  it('shows the server’s refusal at the field it names', async () => {
    await openCoupons();
    const { form, field } = openNewForm();
    type(field('Code'), 'save200');
    type(field('Amount off (₹)'), '100');
    refuse = { status: 400, message: couponFormMessages.duplicate('SAVE200'), data: { field: 'code' } };
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: t.create }));
    });
    await waitFor(() => expect(problemOf(field('Code'))).toBe(couponFormMessages.duplicate('SAVE200')));
    expect(document.activeElement).toBe(field('Code'));
    expect(sent.map((s) => s.body)).toEqual([
      {
        code: 'SAVE200',
        off: { kind: 'flat', amount: 100 },
        minItems: 0,
        firstOrderOnly: false,
        maxUses: null,
        perAccount: 1,
        startsAt: null,
        endsAt: null,
      },
    ]);
    expect(screen.getByRole('form', { name: t.newCoupon })).toBeTruthy();
  });

  it('shows a problem found on the device at its field and sends nothing', async () => {
    await openCoupons();
    const { form, field } = openNewForm();
    type(field('Code'), 'BIG150');
    fireEvent.click(field(t.percent));
    type(field('Percentage off'), '150');
    type(field('Up to (₹)'), '500');
    type(field('Starts (India time)'), '2026-12-02T10:00');
    type(field('Ends (India time)'), '2026-12-01T10:00');
    fireEvent.click(within(form).getByRole('button', { name: t.create }));
    expect(problemOf(field('Percentage off'))).toBe(couponFormMessages.percent);
    expect(problemOf(field('Ends (India time)'))).toBe(couponFormMessages.endsAt);
    expect(field('Up to (₹)').getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(field('Percentage off'));
    expect(sent).toEqual([]);
    const found = await axeCore.run(form, { rules: { 'color-contrast': { enabled: false } } });
    expect(found.violations.map((x) => x.id)).toEqual([]);
  });
});
