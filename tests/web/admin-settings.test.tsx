import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adminMessages } from '../../domain/admin-messages.js';
import { areaMessages, type DeliveryArea, SEED_AREAS } from '../../domain/delivery-areas.js';
import { DEFAULT_SETTINGS, type ShopSettings as Saved, settingMessages } from '../../domain/settings.js';
import DeliveryAreas from '../../web/admin/DeliveryAreas.js';
import { ConfirmHost, SignInAgain } from '../../web/admin/dialogs.js';
import { LeaveGuardProvider } from '../../web/admin/leave-guard.js';
import { ADMIN_MENU, breadcrumbs } from '../../web/admin/menu.js';
import ShopSettings from '../../web/admin/ShopSettings.js';
import { settingsTexts as t } from '../../web/admin/settings-forms.js';
import { AlertsProvider } from '../../web/components/Alerts.js';

/**
 * Settings → Delivery areas and Shop settings against a fake server that keeps what it is sent:
 * a paste with a bad line names the line and sends nothing, the add form shows every problem at
 * its field before sending and the server's refusal at the field it names, a removal asks first,
 * and the settings form sends only what changed. Also the menu's Settings group.
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

const slot = (slotID: number, name: string, retired = false) => ({
  slotID,
  name,
  start: 540,
  end: 720,
  surcharge: 0,
  cutoff: 360,
  capacity: null,
  weekdays: [0, 1, 2, 3, 4, 5, 6],
  isDefault: slotID === 1,
  retired,
  position: slotID,
});
const SLOTS = [slot(1, 'Standard'), slot(2, 'Morning'), slot(6, 'Midnight'), slot(9, 'Dawn', true)];

let areas: DeliveryArea[];
let settings: Saved;
/** Every write the screens sent: method, path and body. */
let sent: { method: string; path: string; body: unknown }[];
/** A refusal the next write gets instead of its answer. */
let refuse: { status: number; message: string; data: unknown } | null;

beforeEach(() => {
  areas = [
    ...SEED_AREAS.filter((a) => a.city === 'Mohali' || a.city === 'Kharar'),
    { pincode: '140603', city: 'Zirakpur', state: 'Punjab', charge: 250, slotIDs: [2, 6], sameDay: false },
  ];
  settings = { ...DEFAULT_SETTINGS, photoCakeNoticeDays: 1, codOnlyConfirmed: false };
  sent = [];
  refuse = null;
  vi.stubGlobal('Request', PageRequest);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(String(input), init);
      const path = new URL(req.url).pathname;
      const text = await req.text();
      if (req.method === 'GET') {
        if (path === '/api/delivery-areas') return ok(areas);
        if (path === '/api/admin/delivery-slots') return ok({ slots: SLOTS, closedDates: [] });
        if (path === '/api/admin/settings') return ok(settings);
        return json({ isSuccess: false, data: null, sys_message: 'Not here.' }, 404);
      }
      const body = text ? JSON.parse(text) : null;
      sent.push({ method: req.method, path, body });
      if (refuse)
        return json({ isSuccess: false, data: refuse.data, sys_message: refuse.message }, refuse.status);
      const pincode = path.match(/^\/api\/admin\/delivery-areas\/(\d+)$/)?.[1];
      if (pincode && req.method === 'PUT') {
        const area = { pincode, ...body };
        areas = [...areas.filter((a) => a.pincode !== pincode), area];
        return ok(area, areaMessages.saved(pincode));
      }
      if (pincode && req.method === 'DELETE') {
        const gone = areas.find((a) => a.pincode === pincode);
        areas = areas.filter((a) => a.pincode !== pincode);
        return ok(gone, areaMessages.removed(pincode));
      }
      if (path === '/api/admin/delivery-areas/import')
        return ok({ added: 2, changed: 1, areas }, areaMessages.pasted(2, 1));
      if (path === '/api/admin/settings' && req.method === 'PUT') {
        settings = { ...settings, ...body };
        return ok(settings, settingMessages.saved);
      }
      return json({ isSuccess: false, data: null, sys_message: 'Not here.' }, 404);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
});

function renderAdmin(ui: ReactNode, path: string) {
  const element = (
    <AlertsProvider>
      <LeaveGuardProvider>
        <SignInAgain>
          {ui}
          <ConfirmHost />
        </SignInAgain>
      </LeaveGuardProvider>
    </AlertsProvider>
  );
  return render(
    <RouterProvider router={createMemoryRouter([{ path: '*', element }], { initialEntries: [path] })} />,
  );
}

const alertWith = (text: string) =>
  waitFor(() => expect(screen.getByText(text, { selector: '.alerts *' })).toBeTruthy());
const openAreas = async () => {
  renderAdmin(<DeliveryAreas />, '/delivery-areas');
  await screen.findAllByTestId('area-row');
};
const rowOf = (pincode: string) => {
  const row = screen.getAllByTestId('area-row').find((r) => within(r).queryByText(pincode));
  if (!row) throw new Error(`no row for ${pincode}`);
  return row;
};
/** The paste's problems as shown: the list under the paste box. */
const pasteProblems = () => {
  const form = screen.getByRole('form', { name: t.pasteHeading });
  return [...form.querySelectorAll('[role="alert"] li')].map((li) => li.textContent);
};
/** What a field is described by (its help, its problem), as a screen reader reaches it. */
const describedBy = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby')?.split(' ') ?? [])
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');
/** The problem a field shows: marked invalid, and the message it is described by. */
const problemOf = (field: HTMLElement) => {
  expect(field.getAttribute('aria-invalid')).toBe('true');
  return describedBy(field);
};

describe('the Settings group of the admin menu', () => {
  it('holds Delivery areas, Delivery Slots (at its old path), Shop settings, Coupons, Shop profile and Policies', () => {
    const group = ADMIN_MENU.find((g) => g.title === 'Settings');
    expect(group?.items.map((i) => [i.title, i.path])).toEqual([
      ['Delivery areas', '/delivery-areas'],
      ['Delivery Slots', '/delivery-slots'],
      ['Shop settings', '/shop-settings'],
      ['Coupons', '/coupons'],
      ['Shop profile', '/shop-profile'],
      ['Policies', '/policies'],
    ]);
    expect(ADMIN_MENU.find((g) => g.title === 'Orders')?.items.map((i) => i.title)).toEqual([
      'All User Orders',
    ]);
    expect(breadcrumbs('/delivery-slots').map((c) => c.title)).toEqual([
      'Dashboard',
      'Settings',
      'Delivery Slots',
    ]);
  });
});

describe('Settings → Delivery areas', () => {
  it('sums up the cities, lists the pincodes with their slots, and filters them', async () => {
    await openAreas();
    const cities = screen.getByRole('region', { name: t.citiesHeading });
    expect(cities.textContent).toContain('“Same-day delivery in Mohali and Kharar, ₹150-₹250”');
    const mohali = screen.getByRole('button', { name: 'Show the pincodes of Mohali' }).closest('tr');
    expect([...(mohali?.cells ?? [])].map((c) => c.textContent)).toEqual(['Mohali', 'Punjab', '6', '₹150']);
    expect(screen.getAllByTestId('area-row')).toHaveLength(8);
    const zirakpur = rowOf('140603');
    expect(within(zirakpur).getByText('Morning, Midnight')).toBeTruthy();
    expect(zirakpur.querySelector('td[data-label="Same-day"]')?.textContent).toBe('No');
    expect(rowOf('160062').querySelector('td[data-label="Slots"]')?.textContent).toBe(t.allSlots);

    fireEvent.change(screen.getByLabelText(t.filterLabel), { target: { value: '1600' } });
    expect(screen.getAllByTestId('area-row')).toHaveLength(5);
    expect(screen.getByText(t.shown(5, 8))).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show the pincodes of Kharar' }));
    expect(screen.getAllByTestId('area-row').map((r) => r.querySelector('strong')?.textContent)).toEqual([
      '140301',
    ]);
    fireEvent.change(screen.getByLabelText(t.filterLabel), { target: { value: 'Delhi' } });
    expect(screen.getByText(t.noMatch('Delhi'))).toBeTruthy();
  });

  it('names each bad pasted line and sends nothing', async () => {
    await openAreas();
    const box = screen.getByLabelText('Lines of pincode,city,state,charge');
    fireEvent.change(box, {
      target: {
        value:
          'pincode,city,state,charge\n160101,Chandigarh,Chandigarh,200\n012345,Nowhere,Punjab,100\n160102,Chandigarh,Chandigarh',
      },
    });
    fireEvent.click(screen.getByRole('button', { name: t.pasteButton }));
    await waitFor(() =>
      expect(pasteProblems()).toEqual([
        areaMessages.pasteLine(3, areaMessages.pincodeInvalid),
        areaMessages.pasteLine(4, areaMessages.pasteShape),
      ]),
    );
    expect(problemOf(box)).toContain(areaMessages.pasteLine(3, areaMessages.pincodeInvalid));
    expect(sent).toEqual([]);
  });

  it('sends a good paste as it was typed and says how many were added and changed', async () => {
    await openAreas();
    const lines =
      '160101,Chandigarh,Chandigarh,200\n160102, Chandigarh, Chandigarh, ₹200\n140301,Kharar,Punjab,175';
    const box = screen.getByLabelText('Lines of pincode,city,state,charge');
    fireEvent.change(box, { target: { value: lines } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: t.pasteButton }));
    });
    await alertWith(areaMessages.pasted(2, 1));
    expect(sent).toEqual([{ method: 'POST', path: '/api/admin/delivery-areas/import', body: { lines } }]);
    expect((box as HTMLTextAreaElement).value).toBe('');
  });

  it('shows the lines a refused paste names, or its message when it names none', async () => {
    await openAreas();
    const lines = ['Line 1: Enter the city.', 'Line 2: Enter the state.'];
    refuse = { status: 400, message: areaMessages.pasteRefused(lines), data: { errors: lines } };
    fireEvent.change(screen.getByLabelText('Lines of pincode,city,state,charge'), {
      target: { value: '160101,Chandigarh,Chandigarh,200' },
    });
    fireEvent.click(screen.getByRole('button', { name: t.pasteButton }));
    await waitFor(() => expect(pasteProblems()).toEqual(lines));
    refuse = { status: 413, message: 'The paste is too large.', data: null };
    fireEvent.click(screen.getByRole('button', { name: t.pasteButton }));
    await waitFor(() => expect(pasteProblems()).toEqual(['The paste is too large.']));
  });

  it('checks the add form at each field before sending, then adds the pincode', async () => {
    await openAreas();
    fireEvent.click(screen.getByRole('button', { name: t.addPincode }));
    const form = screen.getByRole('form', { name: 'Add a pincode' });
    const field = (label: string) => within(form).getByLabelText(label);
    expect(document.activeElement).toBe(field('Pincode'));
    fireEvent.click(within(form).getByRole('button', { name: t.addPincode }));
    expect(problemOf(field('Pincode'))).toBe(areaMessages.pincodeInvalid);
    expect(problemOf(field('City'))).toBe(areaMessages.cityRequired);
    expect(problemOf(field('State'))).toBe(areaMessages.stateRequired);
    expect(problemOf(field('Delivery charge (₹)'))).toBe(areaMessages.chargeInvalid);
    expect(document.activeElement).toBe(field('Pincode'));

    // A pincode already delivered to is edited, not added over; a charge is whole rupees.
    fireEvent.change(field('Pincode'), { target: { value: '160062' } });
    fireEvent.change(field('City'), { target: { value: 'Chandigarh' } });
    fireEvent.change(field('State'), { target: { value: 'Chandigarh' } });
    fireEvent.change(field('Delivery charge (₹)'), { target: { value: '150.5' } });
    fireEvent.click(within(form).getByRole('button', { name: t.addPincode }));
    expect(problemOf(field('Pincode'))).toBe(t.alreadyListed({ pincode: '160062', city: 'Mohali' }));
    expect(problemOf(field('Delivery charge (₹)'))).toBe(areaMessages.chargeInvalid);
    expect(field('City').getAttribute('aria-invalid')).toBeNull();

    // "Only these slots" with none picked would list a pincode no order can reach.
    fireEvent.change(field('Pincode'), { target: { value: '160101' } });
    fireEvent.change(field('Delivery charge (₹)'), { target: { value: '200' } });
    fireEvent.click(within(form).getByLabelText(t.onlySlots));
    expect(within(form).queryByLabelText('Dawn (retired)')).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: t.addPincode }));
    expect(problemOf(within(form).getByRole('group', { name: 'Delivery slots' }))).toBe(
      areaMessages.slotsNone,
    );
    expect(sent).toEqual([]);

    fireEvent.click(within(form).getByLabelText('Midnight'));
    fireEvent.click(within(form).getByLabelText('Morning'));
    fireEvent.click(within(form).getByLabelText(/^Same-day delivery/));
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: t.addPincode }));
    });
    await alertWith(areaMessages.saved('160101'));
    expect(sent).toEqual([
      {
        method: 'PUT',
        path: '/api/admin/delivery-areas/160101',
        body: { city: 'Chandigarh', state: 'Chandigarh', charge: 200, slotIDs: [6, 2], sameDay: false },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Add a pincode' })).toBeNull());
    expect(rowOf('160101').querySelector('td[data-label="Slots"]')?.textContent).toBe('Midnight, Morning');
  });

  it("shows the server's refusal at the field it names (the slots' 422s at the slots), or under the form", async () => {
    await openAreas();
    fireEvent.click(screen.getByRole('button', { name: 'Edit 140603' }));
    const form = screen.getByRole('form', { name: 'Edit 140603' });
    expect((within(form).getByLabelText('Pincode') as HTMLInputElement).readOnly).toBe(true);
    expect((within(form).getByLabelText('Morning') as HTMLInputElement).checked).toBe(true);
    refuse = { status: 400, message: areaMessages.nameTooLong, data: { field: 'city' } };
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: t.saveArea }));
    });
    expect(problemOf(within(form).getByLabelText('City'))).toBe(areaMessages.nameTooLong);
    refuse = { status: 422, message: areaMessages.slotUnknown, data: null };
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: t.saveArea }));
    });
    expect(problemOf(within(form).getByRole('group', { name: 'Delivery slots' }))).toBe(
      areaMessages.slotUnknown,
    );
    expect(within(form).getByLabelText('City').getAttribute('aria-invalid')).toBeNull();
    refuse = { status: 500, message: 'The database is busy.', data: null };
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: t.saveArea }));
    });
    expect(within(form).getByRole('alert').textContent).toBe('The database is busy.');
    const body = { city: 'Zirakpur', state: 'Punjab', charge: 250, slotIDs: [2, 6], sameDay: false };
    expect(sent.map((s) => s.body)).toEqual([body, body, body]);
  });

  it('asks before removing a pincode; Cancel sends nothing', async () => {
    await openAreas();
    fireEvent.click(within(rowOf('160062')).getByRole('button', { name: 'Remove 160062' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(t.removeConfirm({ pincode: '160062', city: 'Mohali' }))).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    });
    expect(sent).toEqual([]);
    fireEvent.click(within(rowOf('160062')).getByRole('button', { name: 'Remove 160062' }));
    dialog = await screen.findByRole('dialog');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    });
    await alertWith(areaMessages.removed('160062'));
    expect(sent).toEqual([{ method: 'DELETE', path: '/api/admin/delivery-areas/160062', body: null }]);
    await waitFor(() => expect(screen.getAllByTestId('area-row')).toHaveLength(7));
  });

  it('offline, says the screen needs a connection', () => {
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    renderAdmin(<DeliveryAreas />, '/delivery-areas');
    expect(screen.getByText(adminMessages.needsConnection)).toBeTruthy();
    expect(screen.queryByLabelText(t.filterLabel)).toBeNull();
  });
});

describe('Settings → Shop settings', () => {
  const notice = () => screen.findByLabelText('Photo cake notice (days)');

  it('sends nothing when nothing changed, and only the changed key when one did', async () => {
    renderAdmin(<ShopSettings />, '/shop-settings');
    const field = await notice();
    expect((field as HTMLInputElement).value).toBe('1');
    expect(field.getAttribute('type')).toBe('number');
    fireEvent.click(screen.getByRole('button', { name: t.saveSettings }));
    await alertWith(t.nothingChanged);
    fireEvent.change(field, { target: { value: '2' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: t.saveSettings }));
    });
    await alertWith(settingMessages.saved);
    expect(sent).toEqual([{ method: 'PUT', path: '/api/admin/settings', body: { photoCakeNoticeDays: 2 } }]);
    expect((field as HTMLInputElement).value).toBe('2');
  });

  it('shows a bad value at its field and sends nothing; a refusal naming the key shows there too', async () => {
    renderAdmin(<ShopSettings />, '/shop-settings');
    const field = await notice();
    expect(describedBy(field)).toContain('How many days ahead a photo cake must be ordered');
    fireEvent.change(field, { target: { value: '9' } });
    fireEvent.click(screen.getByRole('button', { name: t.saveSettings }));
    expect(problemOf(field)).toContain(settingMessages.photoCakeNoticeDays);
    expect(document.activeElement).toBe(field);
    expect(sent).toEqual([]);

    refuse = { status: 400, message: 'Another admin is saving.', data: { field: 'photoCakeNoticeDays' } };
    fireEvent.change(field, { target: { value: '3' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: t.saveSettings }));
    });
    expect(problemOf(field)).toContain('Another admin is saving.');
    expect(sent).toHaveLength(1);
  });
});
