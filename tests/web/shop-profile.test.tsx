import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_PROFILE,
  DEMO_PROFILE,
  gstinCheckChar,
  type Logo,
  logoUrl,
  type ShopProfile as Profile,
  profileMessages,
} from '../../domain/shop-profile.js';
import { ConfirmHost, SignInAgain } from '../../web/admin/dialogs.js';
import { LeaveGuardProvider } from '../../web/admin/leave-guard.js';
import { ADMIN_MENU } from '../../web/admin/menu.js';
import { profileTexts as t } from '../../web/admin/profile-forms.js';
import ShopProfile from '../../web/admin/ShopProfile.js';
import { AlertsProvider } from '../../web/components/Alerts.js';

/**
 * Settings → Shop profile against a fake server that keeps what it is sent: every problem shown at
 * its field before anything is sent (the first focused), only a valid profile sent (as the schema
 * gives it), a server's refusal at the field its `data.field` names, and the logo uploaded, shown,
 * saved with the profile and removed.
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

const LOGO: NonNullable<Logo> = { stem: 'logomq1x2y-0123456789ab', version: 1 };
let profile: Profile;
let sent: { method: string; path: string; body: unknown }[];
let refuse: { status: number; message: string; data: unknown } | null;

beforeEach(() => {
  profile = structuredClone(DEMO_PROFILE);
  sent = [];
  refuse = null;
  vi.stubGlobal('Request', PageRequest);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(String(input), init);
      const path = new URL(req.url).pathname;
      if (req.method === 'GET' && path === '/api/admin/settings')
        return ok({ photoCakeNoticeDays: 1, profile, policies: {}, policiesReviewed: false, offer: null });
      const isForm = req.headers.get('content-type')?.startsWith('multipart/form-data');
      const body = isForm ? await req.formData() : JSON.parse((await req.text()) || 'null');
      sent.push({ method: req.method, path, body });
      if (refuse)
        return json({ isSuccess: false, data: refuse.data, sys_message: refuse.message }, refuse.status);
      if (req.method === 'POST' && path === '/api/admin/shop-profile/logo')
        return ok(LOGO, 'Logo uploaded: save the profile to use it.');
      if (req.method === 'PUT' && path === '/api/admin/settings') {
        profile = body.profile;
        return ok({ photoCakeNoticeDays: 1, profile, policies: {}, policiesReviewed: false, offer: null });
      }
      return json({ isSuccess: false, data: null, sys_message: 'Not here.' }, 404);
    }),
  );
  // jsdom draws no frames: the form focuses a field on the next one.
  vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => setTimeout(() => f(0), 0));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function open() {
  const element = (
    <AlertsProvider>
      <LeaveGuardProvider>
        <SignInAgain>
          <ShopProfile />
          <ConfirmHost />
        </SignInAgain>
      </LeaveGuardProvider>
    </AlertsProvider>
  );
  render(
    <RouterProvider
      router={createMemoryRouter([{ path: '*', element }], { initialEntries: ['/shop-profile'] })}
    />,
  );
  return screen.findByLabelText('Shop name');
}

const describedBy = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby')?.split(' ') ?? [])
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');
const problemOf = (field: HTMLElement) => {
  expect(field.getAttribute('aria-invalid'), field.id).toBe('true');
  return describedBy(field);
};
const store = (n: number) => screen.getByRole('group', { name: t.store(n) });
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });
const save = () =>
  act(async () => {
    fireEvent.click(screen.getByRole('button', { name: t.save }));
  });
const alertWith = (text: string) =>
  waitFor(() => expect(screen.getByText(text, { selector: '.alerts *' })).toBeTruthy());

describe('Settings → Shop profile', () => {
  it('is in the Settings group of the menu', () => {
    const settings = ADMIN_MENU.find((g) => g.title === 'Settings');
    expect(settings?.items.map((i) => [i.title, i.path])).toContainEqual(['Shop profile', '/shop-profile']);
  });

  it('shows the saved profile in its fieldsets, each field with its help', async () => {
    const name = await open();
    expect((name as HTMLInputElement).value).toBe(DEMO_PROFILE.name);
    for (const legend of [t.identity, t.care, t.stores, t.social, t.legal, t.grievance])
      expect(screen.getByRole('group', { name: legend })).toBeTruthy();
    expect(screen.getAllByTestId('profile-store')).toHaveLength(2);
    expect((within(store(2)).getByLabelText('PIN code') as HTMLInputElement).value).toBe('160062');
    expect(describedBy(screen.getByLabelText('FSSAI number'))).toContain(
      'printed in the footer, on every order and packing slip',
    );
    expect(describedBy(screen.getByLabelText('Short name'))).toContain('under its icon');
    expect(describedBy(screen.getByLabelText(t.chooseLogo))).toContain('A square picture');
    expect(screen.getByText(t.noLogo)).toBeTruthy();
  });

  it('shows every problem at its field, focuses the first, and sends nothing', async () => {
    const name = await open();
    type(name, '  ');
    type(screen.getByLabelText('Customer care email'), 'care at shop');
    type(screen.getByLabelText('Instagram'), 'javascript:alert(1)');
    type(screen.getByLabelText('FSSAI number'), '1234');
    const first14 = '27AAPFU0939F1Z';
    const right = gstinCheckChar(first14);
    type(screen.getByLabelText('GSTIN'), first14 + (right === 'A' ? 'B' : 'A'));
    type(within(store(1)).getByLabelText('PIN code'), '012345');
    fireEvent.click(screen.getByRole('button', { name: t.addStore }));
    await waitFor(() => expect(document.activeElement).toBe(within(store(3)).getByLabelText('Store name')));
    await save();

    expect(problemOf(name)).toContain(profileMessages.name);
    expect(problemOf(screen.getByLabelText('Customer care email'))).toContain(profileMessages.email);
    expect(problemOf(screen.getByLabelText('Instagram'))).toContain(profileMessages.url);
    expect(problemOf(screen.getByLabelText('FSSAI number'))).toContain(profileMessages.fssai);
    expect(problemOf(screen.getByLabelText('GSTIN'))).toContain(profileMessages.gstin);
    expect(problemOf(within(store(1)).getByLabelText('PIN code'))).toContain(profileMessages.pin);
    expect(problemOf(within(store(3)).getByLabelText('Store name'))).toContain(profileMessages.storeName);
    expect(problemOf(within(store(3)).getByLabelText('Address'))).toContain(profileMessages.storeAddress);
    expect(screen.getByLabelText('Short name').getAttribute('aria-invalid')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(sent).toEqual([]);
  });

  it('sends only a valid profile, as its schema gives it, and shows what was saved', async () => {
    const name = await open();
    type(name, ' Sharma Sweets ');
    type(screen.getByLabelText('Customer care phone'), '0172 400 1234');
    type(screen.getByLabelText('WhatsApp number'), '+91 98765 01234');
    type(screen.getByLabelText('FSSAI number'), '10012345678901');
    const gstin = `27aapfu0939f1z${gstinCheckChar('27AAPFU0939F1Z').toLowerCase()}`;
    type(screen.getByLabelText('GSTIN'), gstin);
    fireEvent.click(within(store(1)).getByRole('button', { name: t.removeStore(1) }));
    expect(screen.getAllByTestId('profile-store')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: t.addStore }));
    type(within(store(2)).getByLabelText('Store name'), 'Kharar');
    type(within(store(2)).getByLabelText('Address'), 'Main Road, Kharar');
    type(within(store(2)).getByLabelText('PIN code'), '140301');
    fireEvent.click(within(store(2)).getByRole('button', { name: t.moveStoreUp(2) }));
    await save();
    await alertWith(t.saved);

    const expected: Profile = {
      ...DEMO_PROFILE,
      name: 'Sharma Sweets',
      care: { ...DEMO_PROFILE.care, phone: '0172 400 1234', whatsapp: '9876501234' },
      fssai: '10012345678901',
      gstin: gstin.toUpperCase(),
      stores: [
        { name: 'Kharar', address: 'Main Road, Kharar', pin: '140301', phone: '', hours: '', mapUrl: '' },
        DEMO_PROFILE.stores[1] as Profile['stores'][0],
      ],
    };
    expect(sent).toEqual([{ method: 'PUT', path: '/api/admin/settings', body: { profile: expected } }]);
    expect((name as HTMLInputElement).value).toBe('Sharma Sweets');
    expect((screen.getByLabelText('WhatsApp number') as HTMLInputElement).value).toBe('9876501234');
    // Saved: nothing is left to send.
    await save();
    await alertWith(t.nothingChanged);
    expect(sent).toHaveLength(1);
  });

  it('puts a server’s refusal at the field its data.field names, or at the form', async () => {
    await open();
    type(screen.getByLabelText('Tagline'), 'Fresh every morning');
    refuse = { status: 400, message: profileMessages.pin, data: { field: 'profile.stores.1.pin' } };
    await save();
    const pin = within(store(2)).getByLabelText('PIN code');
    expect(problemOf(pin)).toContain(profileMessages.pin);
    await waitFor(() => expect(document.activeElement).toBe(pin));
    expect(within(store(1)).getByLabelText('PIN code').getAttribute('aria-invalid')).toBeNull();

    refuse = { status: 500, message: 'The database is busy.', data: null };
    await save();
    expect(screen.getByText('The database is busy.', { selector: 'form [role="alert"]' })).toBeTruthy();
    expect(sent).toHaveLength(2);
    expect(profile).toEqual(DEMO_PROFILE);
  });

  it('uploads a logo, previews it, saves it with the profile, and removes it', async () => {
    profile = structuredClone(DEFAULT_PROFILE);
    await open();
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'sharma.png', { type: 'image/png' });
    await act(async () => {
      fireEvent.change(screen.getByLabelText(t.chooseLogo), { target: { files: [file] } });
    });
    await alertWith('Logo uploaded: save the profile to use it.');
    const [upload] = sent;
    if (!upload) throw new Error('no upload was sent');
    expect(upload.path).toBe('/api/admin/shop-profile/logo');
    // A form with the picture in the field the endpoint reads (jsdom's File does not survive the
    // trip through Node's FormData: the browser test sends a real picture).
    expect([...(upload.body as FormData).keys()]).toEqual(['logo']);
    const preview = screen.getByRole('img', { name: t.logoPreview(DEFAULT_PROFILE.name) });
    expect(preview.getAttribute('src')).toBe(logoUrl(LOGO, 320));
    expect(screen.getByText(t.logoUnsaved)).toBeTruthy();
    expect(profile.logo).toBeNull();

    await save();
    await alertWith(t.saved);
    expect(profile.logo).toEqual(LOGO);
    expect(screen.queryByText(t.logoUnsaved)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: t.removeLogo }));
    expect(screen.getByText(t.noLogo)).toBeTruthy();
    await save();
    expect(profile.logo).toBeNull();
  });

  it('shows a refused logo at the logo field and keeps the one there', async () => {
    await open();
    refuse = { status: 413, message: 'The logo is larger than 5 MB.', data: { field: 'logo' } };
    const input = screen.getByLabelText(t.chooseLogo);
    await act(async () => {
      fireEvent.change(input, { target: { files: [new File(['x'], 'big.png', { type: 'image/png' })] } });
    });
    expect(problemOf(input)).toContain('The logo is larger than 5 MB.');
    expect(screen.getByText(t.noLogo)).toBeTruthy();
  });
});
