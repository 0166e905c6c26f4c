import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../domain/settings.js';
import { LeaveGuardProvider } from '../../web/admin/leave-guard.js';
import ShopSettings from '../../web/admin/ShopSettings.js';
import { settingsTexts as t } from '../../web/admin/settings-forms.js';
import { AlertsProvider } from '../../web/components/Alerts.js';

/**
 * Shop settings is built from the SETTINGS registry, not from its entries of today: with two more
 * entries (a tick box and a text) the screen shows each with its label and help and the input its
 * kind asks for (a choice, the Cash on Delivery rules' picklist, a select), under its section's
 * heading, and saving sends only the one that changed.
 */
vi.mock('../../domain/settings.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../domain/settings.js')>();
  const SETTINGS = {
    ...real.SETTINGS,
    giftWrapOffered: {
      screen: 'shop',
      section: 'gifts',
      patch: true,
      label: 'Offer gift wrap',
      help: 'Shoppers may ask for the box to be wrapped.',
      device: true,
      schema: v.boolean(),
      default: false,
    },
    packingNote: {
      screen: 'shop',
      section: 'gifts',
      patch: true,
      label: 'Packing note',
      help: 'Printed at the foot of every packing slip.',
      device: false,
      schema: v.pipe(v.string(), v.maxLength(40, 'At most 40 characters.')),
      default: '',
    },
  };
  const keys = Object.keys(SETTINGS) as (keyof typeof SETTINGS)[];
  return {
    ...real,
    SETTINGS,
    SETTING_KEYS: keys,
    SHOP_SCREEN_KEYS: keys.filter((k) => SETTINGS[k].screen === 'shop'),
  };
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const NodeRequest = globalThis.Request;
class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' && input.startsWith('/') ? new URL(input, location.href) : input, init);
  }
}

let saved: Record<string, unknown>;
let sent: unknown[];

beforeEach(() => {
  saved = {
    ...DEFAULT_SETTINGS,
    photoCakeNoticeDays: 1,
    giftWrapOffered: false,
    packingNote: 'Handle with care',
  };
  sent = [];
  vi.stubGlobal('Request', PageRequest);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(String(input), init);
      if (new URL(req.url).pathname !== '/api/admin/settings')
        return json({ isSuccess: false, data: null, sys_message: 'Not here.' }, 404);
      if (req.method === 'PUT') {
        const body = JSON.parse(await req.text());
        sent.push(body);
        saved = { ...saved, ...body };
      }
      return json({ isSuccess: true, data: saved, sys_message: 'Success' });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Shop settings from the registry', () => {
  it('shows every entry by its kind and sends only the changed one', async () => {
    const element = (
      <AlertsProvider>
        <LeaveGuardProvider>
          <ShopSettings />
        </LeaveGuardProvider>
      </AlertsProvider>
    );
    render(
      <RouterProvider
        router={createMemoryRouter([{ path: '*', element }], { initialEntries: ['/shop-settings'] })}
      />,
    );
    const days = (await screen.findByLabelText('Photo cake notice (days)')) as HTMLInputElement;
    const wrap = screen.getByLabelText('Offer gift wrap') as HTMLInputElement;
    const note = screen.getByLabelText('Packing note') as HTMLInputElement;
    expect([days.type, wrap.type, note.type]).toEqual(['number', 'checkbox', 'text']);
    expect([days.value, wrap.checked, note.value]).toEqual(['1', false, 'Handle with care']);
    expect(screen.getByText('Printed at the foot of every packing slip.').id).toBe(
      note.getAttribute('aria-describedby'),
    );

    fireEvent.click(wrap);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: t.saveSettings }));
    });
    await waitFor(() => expect(sent).toEqual([{ giftWrapOffered: true }]));

    fireEvent.change(note, { target: { value: 'x'.repeat(41) } });
    fireEvent.click(screen.getByRole('button', { name: t.saveSettings }));
    expect(note.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('At most 40 characters.')).toBeTruthy();
    fireEvent.change(note, { target: { value: 'Keep upright' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: t.saveSettings }));
    });
    await waitFor(() => expect(sent).toEqual([{ giftWrapOffered: true }, { packingNote: 'Keep upright' }]));
    expect(wrap.checked).toBe(true);

    // Each field stands under its section's heading; a picklist with its choices is a select.
    expect(screen.getAllByRole('group').map((g) => g.querySelector('legend')?.textContent)).toEqual([
      'Gifts',
      'Payments',
      'Cancellation',
    ]);
    expect(
      (screen.getByLabelText('Shoppers may cancel until (hours before the slot)') as HTMLInputElement).type,
    ).toBe('number');
    const personalised = screen.getByLabelText('A cake with a message or a photo') as HTMLSelectElement;
    expect([...personalised.options].map((o) => [o.value, o.text])).toEqual([
      ['any', 'Like any order'],
      ['online', 'Online only'],
    ]);
    fireEvent.change(personalised, { target: { value: 'online' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: t.saveSettings }));
    });
    await waitFor(() => expect(sent.at(-1)).toEqual({ codPersonalised: 'online' }));
  });
});
