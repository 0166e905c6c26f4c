import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  onPincodeChange,
  PINCODE_KEY,
  readPincode,
  savePincode,
  usePincode,
} from '../../web/storefront/delivery-pincode.js';

/**
 * The device's delivery pincode (web/storefront/delivery-pincode.ts): what the header's chip, the
 * product page's box and the checkout read. Only a valid pincode is kept, and every reader hears a
 * change, made in this tab or in another.
 */
function Reader({ name }: { name: string }) {
  const [pincode] = usePincode();
  return <p data-testid={name}>{pincode ?? 'none'}</p>;
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('the saved delivery pincode', () => {
  it('keeps a valid pincode and refuses anything else, leaving the saved one', () => {
    expect(readPincode()).toBeNull();
    savePincode('160062');
    expect(localStorage.getItem(PINCODE_KEY)).toBe('160062');
    for (const bad of ['012345', '16006', '1600622', 'abcdef', ' 160062']) {
      savePincode(bad);
      expect(readPincode()).toBe('160062');
    }
    savePincode(null);
    expect(localStorage.getItem(PINCODE_KEY)).toBeNull();
  });

  it('reads a stored value that is not a pincode as none', () => {
    localStorage.setItem(PINCODE_KEY, '110O01');
    expect(readPincode()).toBeNull();
  });

  it('re-renders every reader on a change here, and on one from another tab', () => {
    render(
      <>
        <Reader name="chip" />
        <Reader name="box" />
      </>,
    );
    expect(screen.getByTestId('chip').textContent).toBe('none');
    act(() => savePincode('140301'));
    expect(screen.getByTestId('chip').textContent).toBe('140301');
    expect(screen.getByTestId('box').textContent).toBe('140301');

    // Another tab wrote it: the browser tells this one with a storage event.
    act(() => {
      localStorage.setItem(PINCODE_KEY, '134109');
      window.dispatchEvent(new StorageEvent('storage', { key: PINCODE_KEY }));
    });
    expect(screen.getByTestId('chip').textContent).toBe('134109');
    expect(screen.getByTestId('box').textContent).toBe('134109');
  });

  it('stops calling a listener once it unsubscribes', () => {
    let calls = 0;
    const stop = onPincodeChange(() => {
      calls += 1;
    });
    savePincode('160062');
    stop();
    savePincode('160055');
    expect(calls).toBe(1);
  });
});

describe('a remembered pincode the shop stopped delivering to', () => {
  it('is forgotten by the product page box, which still answers for it', async () => {
    const { db } = await import('../../sw/db.js');
    const { SEED_AREAS } = await import('../../domain/delivery-areas.js');
    const { ProductDelivery } = await import('../../web/storefront/CheckDelivery.js');
    await db.areas.clear();
    await db.areas.bulkPut(SEED_AREAS.filter((a) => a.pincode !== '160071'));
    savePincode('160071');
    render(<ProductDelivery photoCake={false} />);
    expect(await screen.findByText("We don't deliver to 160071 yet.")).toBeTruthy();
    await act(async () => {});
    expect(readPincode()).toBeNull();
    await db.areas.clear();
  });
});
