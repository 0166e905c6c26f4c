/**
 * The checkout's gift choices: send to someone else (their name and mobile; the address
 * fields become theirs; a saved recipient in two taps, offline too), save the recipient, no price
 * in the box, don't say who it's from, and a free card. The request fields are all optional: an
 * order without gifts sends none of them.
 */
import { useId } from 'react';
import * as v from 'valibot';
import {
  CARD_MESSAGE_MAX,
  CARD_OCCASIONS,
  type CardOccasion,
  cardMessageProblem,
  countCharacters,
  giftMessages,
  RECIPIENTS_MAX,
  type Recipient,
  RecipientSchema,
  type SavedRecipient,
} from '../../domain/gifts.js';
import type { OrderRequestInput } from '../../domain/orders.js';
import { mobileDigits } from '../../domain/phone.js';

export interface GiftState {
  toSomeoneElse: boolean;
  name: string;
  phone: string;
  save: boolean;
  hidePrice: boolean;
  hideSender: boolean;
  card: boolean;
  occasion: CardOccasion;
  message: string;
}

export const noGift: GiftState = {
  toSomeoneElse: false,
  name: '',
  phone: '',
  save: false,
  hidePrice: false,
  hideSender: false,
  card: false,
  occasion: 'Birthday',
  message: '',
};

export type GiftField = 'RecipientName' | 'RecipientPhone' | 'CardMessage';
export type GiftErrors = Partial<Record<GiftField, string>>;

/** The request's gift fields; absent when not chosen, so the idempotency hash of an order without gifts is unchanged. */
export function giftRequest(g: GiftState): Partial<OrderRequestInput> {
  return {
    ...(g.toSomeoneElse
      ? { Recipient: { Name: g.name, Phone: mobileDigits(g.phone), ...(g.save ? { Save: true } : {}) } }
      : {}),
    ...(g.hidePrice ? { HidePrice: true } : {}),
    ...(g.hideSender ? { HideSender: true } : {}),
    ...(g.card ? { Card: { Occasion: g.occasion, Message: g.message } } : {}),
  };
}

/** The same rules as the server's schema, one message per field. */
export function giftErrors(g: GiftState): GiftErrors {
  const errors: GiftErrors = {};
  if (g.toSomeoneElse) {
    const parsed = v.safeParse(RecipientSchema, { Name: g.name, Phone: g.phone });
    if (!parsed.success)
      for (const issue of parsed.issues) {
        const key = issue.path?.[0]?.key;
        if (key === 'Name') errors.RecipientName ??= issue.message;
        if (key === 'Phone') errors.RecipientPhone ??= issue.message;
      }
  }
  if (g.card) {
    const problem = cardMessageProblem(g.message.replace(/\r\n?/g, '\n').trim());
    if (problem) errors.CardMessage = problem;
  }
  return errors;
}

/** The recipient as the order carries it, once it is valid. */
export function recipientOf(g: GiftState): Recipient | null {
  if (!g.toSomeoneElse) return null;
  const parsed = v.safeParse(RecipientSchema, { Name: g.name, Phone: g.phone });
  return parsed.success ? parsed.output : null;
}

export function GiftOptions({
  value,
  onChange,
  saved,
  onPickSaved,
  errors,
  idPrefix,
}: {
  value: GiftState;
  onChange(next: GiftState): void;
  saved: readonly SavedRecipient[];
  onPickSaved(r: SavedRecipient): void;
  errors: GiftErrors;
  idPrefix: string;
}) {
  const id = useId();
  // The account keeps as many as it may: the server would keep no new one, so the box says why first.
  const listFull = saved.length >= RECIPIENTS_MAX;
  const set = <K extends keyof GiftState>(key: K, next: GiftState[K]) => onChange({ ...value, [key]: next });
  const fieldProps = (field: GiftField) => ({
    id: `${idPrefix}-${field}`,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${idPrefix}-${field}-error` : undefined,
  });
  const error = (field: GiftField) =>
    errors[field] ? (
      <p className="co-error" id={`${idPrefix}-${field}-error`}>
        {errors[field]}
      </p>
    ) : null;
  return (
    <fieldset className="co-gift">
      <legend>Is it a gift?</legend>
      <label className="co-check">
        <input
          type="checkbox"
          checked={value.toSomeoneElse}
          onChange={(e) => set('toSomeoneElse', e.target.checked)}
        />
        <span>{giftMessages.sendToSomeoneElse}</span>
      </label>
      {value.toSomeoneElse ? (
        <div className="co-recipient">
          <p className="co-hint">Your email and phone stay on the order; the address below is theirs.</p>
          {saved.length ? (
            <ul className="co-saved" aria-label="Saved recipients">
              {saved.map((r) => (
                <li key={r.id}>
                  <button
                    type="button"
                    className="btn btn--outline btn--small"
                    aria-pressed={value.name === r.name && value.phone === r.phone}
                    onClick={() => onPickSaved(r)}
                  >
                    {recipientLabel(r)}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <div className="co-row">
            <div className="field">
              <label htmlFor={`${idPrefix}-RecipientName`}>Recipient's name</label>
              <input
                {...fieldProps('RecipientName')}
                value={value.name}
                autoComplete="off"
                onChange={(e) => set('name', e.target.value)}
              />
              {error('RecipientName')}
            </div>
            <div className="field">
              <label htmlFor={`${idPrefix}-RecipientPhone`}>Recipient's mobile (10 digits)</label>
              <input
                {...fieldProps('RecipientPhone')}
                value={value.phone}
                type="tel"
                inputMode="tel"
                autoComplete="off"
                onChange={(e) => set('phone', e.target.value)}
              />
              {error('RecipientPhone')}
            </div>
          </div>
          <label className="co-check">
            <input
              type="checkbox"
              checked={value.save && !listFull}
              disabled={listFull}
              aria-describedby={listFull ? `${id}-saved-full` : undefined}
              onChange={(e) => set('save', e.target.checked)}
            />
            <span>Save this recipient</span>
          </label>
          {listFull ? (
            <p className="co-hint" id={`${id}-saved-full`}>
              {giftMessages.recipientsFull}
            </p>
          ) : null}
        </div>
      ) : null}
      <label className="co-check">
        <input
          type="checkbox"
          checked={value.hidePrice}
          onChange={(e) => set('hidePrice', e.target.checked)}
        />
        <span>
          {giftMessages.hidePrice}
          <span className="co-hint"> The packing slip shows no price.</span>
        </span>
      </label>
      <label className="co-check">
        <input
          type="checkbox"
          checked={value.hideSender}
          onChange={(e) => set('hideSender', e.target.checked)}
        />
        <span>
          {giftMessages.hideSender}
          <span className="co-hint"> The card is signed "With love".</span>
        </span>
      </label>
      <label className="co-check">
        <input type="checkbox" checked={value.card} onChange={(e) => set('card', e.target.checked)} />
        <span>{giftMessages.card}</span>
      </label>
      {value.card ? (
        <div className="co-gift-card">
          <div className="field">
            <label htmlFor={`${id}-occasion`}>Occasion</label>
            <select
              id={`${id}-occasion`}
              value={value.occasion}
              onChange={(e) => set('occasion', e.target.value as CardOccasion)}
            >
              {CARD_OCCASIONS.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${idPrefix}-CardMessage`}>Message on the card</label>
            <textarea
              {...fieldProps('CardMessage')}
              aria-describedby={[
                `${id}-card-count`,
                errors.CardMessage ? `${idPrefix}-CardMessage-error` : '',
              ]
                .filter(Boolean)
                .join(' ')}
              rows={3}
              value={value.message}
              onChange={(e) => set('message', e.target.value)}
            />
            <p className="co-hint co-count" id={`${id}-card-count`}>
              <span className="visually-hidden">Characters used: </span>
              {countCharacters(value.message.trim())}/{CARD_MESSAGE_MAX}
            </p>
            {error('CardMessage')}
          </div>
        </div>
      ) : null}
    </fieldset>
  );
}

/** "Dadi Kaur, 98765 43210, Mohali": a saved recipient on its button. */
function recipientLabel(r: SavedRecipient): string {
  return `${r.name}, ${r.phone.slice(0, 5)} ${r.phone.slice(5)}, ${r.city}`;
}
