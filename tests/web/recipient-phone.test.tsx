import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, expect, it } from 'vitest';
import { giftMessages } from '../../domain/gifts.js';
import {
  GiftOptions,
  type GiftState,
  giftErrors,
  giftRequest,
  noGift,
} from '../../web/checkout/GiftOptions.js';

/**
 * The gift recipient's mobile at checkout takes the number as the shopper types or pastes it
 * ("+91 98123 45678"): the box keeps what was typed (cutting it to 10 digits would make another
 * number), and the order carries the 10 digits the server stores.
 */
afterEach(cleanup);

function Harness({ seen }: { seen: { state: GiftState } }) {
  const [state, setState] = useState<GiftState>({ ...noGift, toSomeoneElse: true, name: 'Dadi' });
  seen.state = state;
  return (
    <GiftOptions
      value={state}
      onChange={setState}
      saved={[]}
      onPickSaved={() => undefined}
      errors={giftErrors(state)}
      idPrefix="t"
    />
  );
}

it('takes "+91 98123 45678" and "098123 45678" and sends 9812345678', () => {
  const seen = { state: noGift };
  render(<Harness seen={seen} />);
  const phone = screen.getByLabelText(/Recipient's mobile/) as HTMLInputElement;
  expect(phone.getAttribute('inputmode')).toBe('tel');
  for (const typed of ['+91 98123 45678', '098123 45678', '98123 45678']) {
    fireEvent.change(phone, { target: { value: typed } });
    expect(phone.value).toBe(typed);
    expect(phone.getAttribute('aria-invalid')).toBeNull();
    expect(giftRequest(seen.state).Recipient).toEqual({ Name: 'Dadi', Phone: '9812345678' });
  }
  fireEvent.change(phone, { target: { value: '+44 98123 45678' } });
  expect(phone.getAttribute('aria-invalid')).toBe('true');
  expect(screen.getByText(giftMessages.recipientPhone)).toBeTruthy();
});
