import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, expect, it } from 'vitest';
import { giftMessages, RECIPIENTS_MAX, type SavedRecipient } from '../../domain/gifts.js';
import { GiftOptions, type GiftState, giftErrors, noGift } from '../../web/checkout/GiftOptions.js';

/**
 * An account keeps at most `RECIPIENTS_MAX` saved recipients, and an order's "Save this
 * recipient" then keeps no new one: the checkout says so where the shopper would tick the box,
 * with the server's own words, instead of a promise the order does not keep.
 */
afterEach(cleanup);

const kept = (n: number): SavedRecipient[] =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `Friend ${i + 1}`,
    phone: '9812345678',
    address: `${i + 1} Mall Road`,
    city: 'Ludhiana',
    state: 'Punjab',
    pincode: '141001',
  }));

function Harness({ saved }: { saved: SavedRecipient[] }) {
  const [state, setState] = useState<GiftState>({ ...noGift, toSomeoneElse: true, name: 'Dadi' });
  return (
    <GiftOptions
      value={state}
      onChange={setState}
      saved={saved}
      onPickSaved={() => undefined}
      errors={giftErrors(state)}
      idPrefix="t"
    />
  );
}

it('offers to save a recipient below the cap, and says why not at it', () => {
  const { unmount } = render(<Harness saved={kept(RECIPIENTS_MAX - 1)} />);
  const box = screen.getByLabelText('Save this recipient') as HTMLInputElement;
  expect(box.disabled).toBe(false);
  fireEvent.click(box);
  expect(box.checked).toBe(true);
  expect(screen.queryByText(giftMessages.recipientsFull)).toBeNull();
  unmount();

  render(<Harness saved={kept(RECIPIENTS_MAX)} />);
  const full = screen.getByLabelText('Save this recipient') as HTMLInputElement;
  expect(full.disabled).toBe(true);
  expect(full.checked).toBe(false);
  const why = screen.getByText(giftMessages.recipientsFull);
  expect(full.getAttribute('aria-describedby')).toBe(why.id);
});
