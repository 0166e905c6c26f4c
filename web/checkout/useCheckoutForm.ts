/**
 * The checkout form's state (pincode, date, slot, gift, the other address fields) and its defaults
 * until the shopper changes something. State and City are not kept here: they are the pincode's
 * (`Checkout.tsx` reads them from its delivery area). What the shopper typed is kept on the phone
 * as they type (`checkout-draft.ts`) and comes back first, before any default.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { accountsApi } from '../../domain/accounts.contract.js';
import { earliestDeliveryDate, isValidPincode } from '../../domain/delivery.js';
import type { SavedRecipient } from '../../domain/gifts.js';
import { ownOutboxRows } from '../../sw/account-data.js';
import type { Session } from '../../sw/session.js';
import { call } from '../api/client.js';
import { rememberIfDelivered } from '../hooks/useDelivery.js';
import { readPincode, usePincode } from '../storefront/delivery-pincode.js';
import { clearDraft, type FormState, loadDraft, saveDraft } from './checkout-draft.js';
import { type GiftState, noGift } from './GiftOptions.js';

const blankForm = (): FormState => ({
  DeliveryDate: earliestDeliveryDate(new Date()),
  CustomerName: '',
  CustomerAddress: '',
  // The pincode the shopper gave on the product page or in the header.
  CustomerPincode: readPincode() ?? '',
});

/** The account's name (`GET /GetUserProfile`), online only; '' when it cannot be had. */
async function accountName(): Promise<string> {
  if (!navigator.onLine) return '';
  try {
    return (await call(accountsApi.getProfile)).data?.name?.trim() ?? '';
  } catch {
    // Offline after all, or a lapsed session (the client handles the 401): the box stays empty.
    return '';
  }
}

export function useCheckoutForm(session: Session | null) {
  const [form, setForm] = useState<FormState>(blankForm);
  const [slotID, setSlotID] = useState<number | null>(null);
  const [gift, setGiftState] = useState<GiftState>(noGift);
  const [remembered] = usePincode();
  // Once the shopper has changed the address, no default overwrites what they typed.
  const touched = useRef(false);
  // Once they picked a date or a slot, the suggestion no longer moves their date.
  const dateTouched = useRef(false);
  // Counts the shopper's edits: each one is kept on the phone (the effect below).
  const [edits, setEdits] = useState(0);
  const [drafted, setDrafted] = useState(false);
  const edited = () => {
    touched.current = true;
    setEdits((n) => n + 1);
  };
  const userId = session?.userId ?? 0;

  // Kept after each of the shopper's edits only: a default or a suggestion moving the form (the
  // cart emptied by Place Order changes the suggested date) must not write a draft of its own.
  const latest = useRef({ form, slotID, gift });
  latest.current = { form, slotID, gift };
  useEffect(() => {
    if (edits === 0 || !userId) return;
    const now = latest.current;
    void saveDraft(userId, { ...now, dateChosen: dateTouched.current }).then(() => setDrafted(true));
  }, [edits, userId]);

  /**
   * The date the form offers until the shopper picks one (`checkoutDates`): it follows the
   * pincode, the slots and a photo cake's notice as they become known.
   */
  const suggested = useRef<string | null>(null);
  const suggestDate = useCallback((date: string) => {
    suggested.current = date;
    if (dateTouched.current) return;
    setForm((f) => (f.DeliveryDate === date ? f : { ...f, DeliveryDate: date }));
  }, []);

  // A pincode given elsewhere (the header, another tab) fills the field while it is empty.
  useEffect(() => {
    if (!remembered || touched.current) return;
    setForm((f) => (f.CustomerPincode ? f : { ...f, CustomerPincode: remembered }));
  }, [remembered]);

  // What the shopper typed here before (a reload, a payment window that took the page) comes back
  // as it was. Else what they typed for their last order on this phone, so a repeat order is a
  // tap: its address with its own pincode, unless the shopper has since named another one (an
  // address is only ever shown beside the pincode it is in). Else the account's own name.
  useEffect(() => {
    if (!userId) return;
    let live = true;
    // Asked at once, whatever fills the form: the answer is also the login guard's check of the
    // session (`RequireLoginForCheckout`), and its name fills an empty Full Name.
    const named = accountName();
    void (async () => {
      const draft = await loadDraft(userId);
      if (!live || touched.current) return;
      if (draft) {
        touched.current = true;
        dateTouched.current = draft.dateChosen;
        setForm((f) => ({
          ...draft.form,
          DeliveryDate: draft.dateChosen ? draft.form.DeliveryDate : f.DeliveryDate,
        }));
        setSlotID(draft.slotID);
        setGiftState(draft.gift);
        setDrafted(true);
        return;
      }
      const last = (await ownOutboxRows(userId)).sort((a, b) => a.createdAt - b.createdAt).at(-1)?.request;
      if (last && live && !touched.current) {
        const pincode = String(last.CustomerPincode);
        setForm((f) => {
          const samePlace = !f.CustomerPincode || f.CustomerPincode === pincode;
          return {
            ...f,
            CustomerName: last.CustomerName,
            ...(samePlace ? { CustomerAddress: last.CustomerAddress, CustomerPincode: pincode } : {}),
          };
        });
        return;
      }
      const name = await named;
      if (name && live && !touched.current)
        setForm((f) => (f.CustomerName ? f : { ...f, CustomerName: name }));
    })();
    return () => {
      live = false;
    };
  }, [userId]);

  return {
    form,
    slotID,
    gift,
    suggestDate,
    /** Whether a draft of this account is kept on the phone (Clear offers to forget it). */
    drafted,
    /** Forgets what was typed: the draft leaves the phone and the form starts again from its defaults. */
    async clear() {
      if (userId) await clearDraft(userId);
      touched.current = false;
      dateTouched.current = false;
      setDrafted(false);
      const blank = blankForm();
      setForm({ ...blank, DeliveryDate: suggested.current ?? blank.DeliveryDate });
      setSlotID(null);
      setGiftState(noGift);
      const name = await accountName();
      if (name && !touched.current) setForm((f) => (f.CustomerName ? f : { ...f, CustomerName: name }));
    },
    /** One field. A whole pincode the shopper typed is remembered for the header and the product pages. */
    set(field: keyof FormState, value: string) {
      edited();
      if (field === 'DeliveryDate') dateTouched.current = true;
      if (field === 'CustomerPincode' && isValidPincode(value)) void rememberIfDelivered(value);
      setForm((f) => ({ ...f, [field]: value }));
    },
    pickSlot(id: number | null) {
      edited();
      dateTouched.current = true;
      setSlotID(id);
    },
    setGift(next: GiftState) {
      edited();
      setGiftState(next);
    },
    /** A saved recipient: the gift goes to them, at their address (their pincode is the delivery's). */
    pickSaved(r: SavedRecipient) {
      edited();
      if (isValidPincode(r.pincode)) void rememberIfDelivered(r.pincode);
      setGiftState((g) => ({ ...g, toSomeoneElse: true, name: r.name, phone: r.phone, save: false }));
      setForm((f) => ({ ...f, CustomerAddress: r.address, CustomerPincode: r.pincode }));
    },
  };
}
