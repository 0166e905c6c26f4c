/**
 * Delivery slot texts (ours: the spec has a date only). A module of their own,
 * so the first screen's bundle never carries them: only the checkout, the
 * outbox's attention screen and the admin's Slots screen import them.
 */
import { formatCalendarDay } from './india-time.js';

export const slotMessages = {
  legend: 'Delivery slot',
  /**
   * A slot that adds nothing to the order: "Free" only where the delivery itself costs nothing
   * (the picker knows the pincode's charge); everywhere else "no extra charge", since the
   * pincode's delivery charge still applies (DESIGN.md's departure 11).
   */
  free: 'Free',
  noSurcharge: 'no extra charge',
  noSurchargeAlone: 'No extra charge',
  full: 'Full',
  closed: 'Closed',
  past: 'Too late today',
  notRunning: 'Not on this day',
  left: (n: number) => `${n} left`,
  offlineNote: 'You are offline: places left are checked when the order is sent.',
  noSlots: 'No delivery slot can be booked on this date. Please choose another date.',
  pickSlot: 'Please choose a delivery slot.',
  dateClosed: (message: string) => message,
  // Refusals (the server's sys_message)
  slotFull: (name: string, date: string) =>
    `The ${name} slot on ${formatCalendarDay(date)} is full. Please choose another slot.`,
  slotPast: (name: string, date: string) =>
    `The ${name} slot on ${formatCalendarDay(date)} can no longer be booked. Please choose another slot.`,
  slotClosed: (date: string, message: string) =>
    `We are closed on ${formatCalendarDay(date)}${message ? `: ${message}` : '.'}`,
  slotNotRunning: (name: string, date: string) =>
    `The ${name} slot does not run on ${formatCalendarDay(date)}. Please choose another slot.`,
  slotRetired: (name: string) => `The ${name} slot is no longer offered. Please choose another slot.`,
  slotUnknown: 'That delivery slot does not exist. Please choose another slot.',
  slotAccountLimit: (name: string, date: string, max: number) =>
    max === 0
      ? `The ${name} slot on ${formatCalendarDay(date)} takes orders paid online only. Please pay online, or choose another slot.`
      : `You already have ${max === 1 ? 'an unpaid order' : `${max} unpaid orders`} in the ${name} slot on ${formatCalendarDay(date)}, as many as one account may hold. Please pay online, or choose another slot.`,
  noDefaultSlot: 'The shop offers no standard delivery right now. Please choose a delivery slot.',
  // The outbox's attention screen
  attentionTitle: 'That delivery slot is no longer available',
  attentionIntro:
    'Please pick another slot. Nothing changes until you choose: the order stays saved on this phone.',
  attentionNone: 'No free slot in the next two weeks. You can cancel the order, or try again later.',
  attentionSend: 'Send with this slot',
  // Admin
  adminTitle: 'Delivery slots',
  adminSaved: 'Slot saved.',
  adminAdded: 'Slot added.',
  adminRetired: 'Slot retired: it is no longer offered.',
  adminRestored: 'Slot offered again.',
  adminDefaultNotRetired:
    'Standard delivery is the slot of every order that names none: it cannot be retired.',
  adminSlotNotFound: (id: number) => `Delivery slot ${id} was not found.`,
  adminClosed: (date: string) => `Closed on ${formatCalendarDay(date)}.`,
  adminReopened: (date: string) => `Open again on ${formatCalendarDay(date)}.`,
  adminClosureNotFound: (date: string) => `${formatCalendarDay(date)} is not closed.`,
} as const;
