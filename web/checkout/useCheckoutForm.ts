/** The checkout form's state (date, slot, gift, address fields) and its defaults until the shopper changes something. */
import { useEffect, useRef, useState } from 'react';
import type { CartLine } from '../../domain/cart.js';
import { earliestDeliveryDate } from '../../domain/delivery.js';
import { earliestPhotoCakeDate, type SavedRecipient } from '../../domain/gifts.js';
import { earliestSlotDate } from '../../domain/slots.js';
import { ownOutboxRows } from '../../sw/account-data.js';
import type { Session } from '../../sw/session.js';
import { type GiftState, noGift } from './GiftOptions.js';
import type { DeviceSlots } from './SlotPicker.js';

export interface FormState {
  DeliveryDate: string;
  CustomerName: string;
  State: string;
  City: string;
  CustomerAddress: string;
  CustomerPincode: string;
}

function initialForm(): FormState {
  return {
    DeliveryDate: earliestDeliveryDate(new Date()),
    CustomerName: '',
    State: '',
    City: '',
    CustomerAddress: '',
    CustomerPincode: '',
  };
}

/**
 * `photoCake` and `device` are effect dependencies: pass the values as read (the cart's line and
 * the device's slots keep their identity between renders), never an object made during the render.
 */
export function useCheckoutForm(
  session: Session | null,
  photoCake: CartLine | null,
  device: DeviceSlots | undefined,
) {
  const [form, setForm] = useState<FormState>(initialForm);
  const [slotID, setSlotID] = useState<number | null>(null);
  const [gift, setGiftState] = useState<GiftState>(noGift);
  // Once the shopper has changed anything, no default overwrites what they chose.
  const touched = useRef(false);

  // A photo cake in the cart moves the default date to the first it can have.
  useEffect(() => {
    if (!photoCake || touched.current) return;
    const first = earliestPhotoCakeDate(new Date());
    setForm((f) => (f.DeliveryDate < first ? { ...f, DeliveryDate: first } : f));
  }, [photoCake]);

  // The spec's default date, unless the shop closed it: then the first date a slot can be had.
  useEffect(() => {
    if (!device?.slots.length || touched.current) return;
    const from = earliestDeliveryDate(new Date());
    const first = earliestSlotDate(device.slots, device.closures, new Date(), from);
    if (first && first !== from) setForm((f) => ({ ...f, DeliveryDate: first }));
  }, [device]);

  // What the shopper typed for their last order on this phone, so a repeat order is a tap.
  useEffect(() => {
    if (!session) return;
    void ownOutboxRows(session.userId).then((rows) => {
      const last = rows.sort((a, b) => a.createdAt - b.createdAt).at(-1)?.request;
      if (!last || touched.current) return;
      setForm((f) => ({
        ...f,
        CustomerName: last.CustomerName,
        State: last.State,
        City: last.City,
        CustomerAddress: last.CustomerAddress,
        CustomerPincode: String(last.CustomerPincode),
      }));
    });
  }, [session]);

  return {
    form,
    slotID,
    gift,
    /** One field; a new state empties the city (the cities are the state's). */
    set(field: keyof FormState, value: string) {
      touched.current = true;
      setForm((f) => ({ ...f, [field]: value, ...(field === 'State' ? { City: '' } : {}) }));
    },
    pickSlot(id: number | null) {
      touched.current = true;
      setSlotID(id);
    },
    setGift(next: GiftState) {
      touched.current = true;
      setGiftState(next);
    },
    /** A saved recipient: the gift goes to them, at their address. */
    pickSaved(r: SavedRecipient) {
      touched.current = true;
      setGiftState((g) => ({ ...g, toSomeoneElse: true, name: r.name, phone: r.phone, save: false }));
      setForm((f) => ({
        ...f,
        State: r.state,
        City: r.city,
        CustomerAddress: r.address,
        CustomerPincode: r.pincode,
      }));
    },
  };
}
