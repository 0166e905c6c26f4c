/**
 * The checkout form's state (pincode, date, slot, gift, the other address fields) and its defaults
 * until the shopper changes something. State and City are not kept here: they are the pincode's
 * (`Checkout.tsx` reads them from its delivery area).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { earliestDeliveryDate, isValidPincode } from '../../domain/delivery.js';
import type { SavedRecipient } from '../../domain/gifts.js';
import { ownOutboxRows } from '../../sw/account-data.js';
import type { Session } from '../../sw/session.js';
import { rememberIfDelivered } from '../hooks/useDelivery.js';
import { readPincode, usePincode } from '../storefront/delivery-pincode.js';
import { type GiftState, noGift } from './GiftOptions.js';

export interface FormState {
  DeliveryDate: string;
  CustomerName: string;
  CustomerAddress: string;
  CustomerPincode: string;
}

export function useCheckoutForm(session: Session | null) {
  const [form, setForm] = useState<FormState>(() => ({
    DeliveryDate: earliestDeliveryDate(new Date()),
    CustomerName: '',
    CustomerAddress: '',
    // The pincode the shopper gave on the product page or in the header.
    CustomerPincode: readPincode() ?? '',
  }));
  const [slotID, setSlotID] = useState<number | null>(null);
  const [gift, setGiftState] = useState<GiftState>(noGift);
  const [remembered] = usePincode();
  // Once the shopper has changed the address, no default overwrites what they typed.
  const touched = useRef(false);
  // Once they picked a date or a slot, the suggestion no longer moves their date.
  const dateTouched = useRef(false);

  /**
   * The date the form offers until the shopper picks one (`checkoutDates`): it follows the
   * pincode, the slots and a photo cake's notice as they become known.
   */
  const suggestDate = useCallback((date: string) => {
    if (dateTouched.current) return;
    setForm((f) => (f.DeliveryDate === date ? f : { ...f, DeliveryDate: date }));
  }, []);

  // A pincode given elsewhere (the header, another tab) fills the field while it is empty.
  useEffect(() => {
    if (!remembered || touched.current) return;
    setForm((f) => (f.CustomerPincode ? f : { ...f, CustomerPincode: remembered }));
  }, [remembered]);

  // What the shopper typed for their last order on this phone, so a repeat order is a tap. Its
  // address comes with its own pincode, unless the shopper has since named another one: an
  // address is only ever shown beside the pincode it is in.
  useEffect(() => {
    if (!session) return;
    void ownOutboxRows(session.userId).then((rows) => {
      const last = rows.sort((a, b) => a.createdAt - b.createdAt).at(-1)?.request;
      if (!last || touched.current) return;
      const pincode = String(last.CustomerPincode);
      setForm((f) => {
        const samePlace = !f.CustomerPincode || f.CustomerPincode === pincode;
        return {
          ...f,
          CustomerName: last.CustomerName,
          ...(samePlace ? { CustomerAddress: last.CustomerAddress, CustomerPincode: pincode } : {}),
        };
      });
    });
  }, [session]);

  return {
    form,
    slotID,
    gift,
    suggestDate,
    /** One field. A whole pincode the shopper typed is remembered for the header and the product pages. */
    set(field: keyof FormState, value: string) {
      touched.current = true;
      if (field === 'DeliveryDate') dateTouched.current = true;
      if (field === 'CustomerPincode' && isValidPincode(value)) void rememberIfDelivered(value);
      setForm((f) => ({ ...f, [field]: value }));
    },
    pickSlot(id: number | null) {
      touched.current = true;
      dateTouched.current = true;
      setSlotID(id);
    },
    setGift(next: GiftState) {
      touched.current = true;
      setGiftState(next);
    },
    /** A saved recipient: the gift goes to them, at their address (their pincode is the delivery's). */
    pickSaved(r: SavedRecipient) {
      touched.current = true;
      if (isValidPincode(r.pincode)) void rememberIfDelivered(r.pincode);
      setGiftState((g) => ({ ...g, toSomeoneElse: true, name: r.name, phone: r.phone, save: false }));
      setForm((f) => ({ ...f, CustomerAddress: r.address, CustomerPincode: r.pincode }));
    },
  };
}
