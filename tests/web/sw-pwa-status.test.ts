import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../sw/db.js';
import { formatSynced, PwaStatus } from '../../web/pwa/PwaStatus.js';
import { getPwaState, setPwaState } from '../../web/pwa/pwa-state.js';

/** The PWA status strip over the device's real (fake-indexeddb) store. */
beforeEach(async () => {
  await db.meta.clear();
  localStorage.clear();
  setPwaState({ offline: false, updateReady: false, canInstall: false, showIosInstallHint: false });
});
afterEach(() => cleanup());

describe('PwaStatus', () => {
  it('shows nothing about syncing before the first sync, then the time of the last one', async () => {
    render(createElement(PwaStatus));
    expect(screen.queryByText(/Catalogue synced/)).toBeNull();
    const at = new Date(2026, 10, 23, 16, 5).getTime();
    await act(() => db.meta.put({ key: 'lastSyncedAt', value: at }));
    const line = await screen.findByText(/Catalogue synced/);
    expect(line.querySelector('time')?.getAttribute('datetime')).toBe(new Date(at).toISOString());
  });

  it('says when the device is offline, in a polite status region', async () => {
    render(createElement(PwaStatus));
    expect(screen.queryByText(/You are offline/)).toBeNull();
    act(() => setPwaState({ offline: true }));
    const note = screen.getByText(/You are offline/);
    expect(note.closest('[role="status"]')?.getAttribute('aria-live')).toBe('polite');
    act(() => setPwaState({ offline: false }));
    expect(screen.queryByText(/You are offline/)).toBeNull();
  });

  // The offers are a lazy chunk (PwaCards), so each test waits for them to arrive.
  it('offers a waiting update with Reload and Later; Later only hides the offer', async () => {
    render(createElement(PwaStatus));
    expect(screen.queryByText('A new version is ready')).toBeNull();
    act(() => setPwaState({ updateReady: true }));
    expect(await screen.findByRole('region', { name: 'A new version is ready' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByText('A new version is ready')).toBeNull();
    expect(getPwaState().updateReady).toBe(false);
  });

  it('offers installation, and Not now snoozes the offer', async () => {
    render(createElement(PwaStatus));
    act(() => setPwaState({ canInstall: true }));
    expect(await screen.findByRole('button', { name: 'Install app' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('button', { name: 'Install app' })).toBeNull();
    expect(Number(localStorage.getItem('pwaInstallSnoozedAt'))).toBeGreaterThan(0);
  });

  it('explains installing on iOS, where there is no install prompt', async () => {
    render(createElement(PwaStatus));
    act(() => setPwaState({ showIosInstallHint: true }));
    expect(await screen.findByText(/Add to Home Screen/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Got it' }));
    expect(screen.queryByText(/Add to Home Screen/)).toBeNull();
  });
});

describe('formatSynced', () => {
  it('shows only the time today and the date too on another day', () => {
    const now = new Date(2026, 10, 23, 18, 0).getTime();
    const today = formatSynced(new Date(2026, 10, 23, 9, 7).getTime(), now);
    const earlier = formatSynced(new Date(2026, 10, 20, 9, 7).getTime(), now);
    expect(today).toMatch(/9:07/);
    expect(today).not.toMatch(/Nov/);
    expect(earlier).toMatch(/20/);
    expect(earlier).toMatch(/Nov/);
  });
});
