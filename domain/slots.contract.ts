/**
 * Delivery slots: the public look at a date's slots, and the
 * admin's Slots screen. Every admin write also moves the catalogue's version,
 * so devices get the new slots with their next catalogue sync.
 */
import * as v from 'valibot';
import { endpoint } from './contract.js';
import {
  AdminSlotsSchema,
  ClosedDateParamsSchema,
  ClosedDateSchema,
  ClosureInputSchema,
  DeliverySlotSchema,
  SlotInputSchema,
  SlotsForDateSchema,
  SlotsQuerySchema,
} from './slots.js';
import { IdSchema } from './validation.js';

const IdParams = v.object({ id: IdSchema });

export const slotsApi = {
  forDate: endpoint({
    method: 'GET',
    path: '/delivery-slots',
    summary:
      "A date's delivery slots (India time): window, surcharge, cut-off, and whether each can be had (open, full, closed, past, not-running) with the places left",
    tag: 'orders',
    access: 'public',
    response: SlotsForDateSchema,
    query: SlotsQuerySchema,
  }),
  adminList: endpoint({
    method: 'GET',
    path: '/admin/delivery-slots',
    summary: 'Every delivery slot (retired ones too) and the closed dates from today on',
    tag: 'Admin',
    access: 'admin',
    response: AdminSlotsSchema,
  }),
  add: endpoint({
    method: 'POST',
    path: '/admin/delivery-slots',
    summary: 'Add a delivery slot (minutes of the India day; cut-off may be negative: the days before)',
    tag: 'Admin',
    access: 'admin',
    status: 201,
    response: DeliverySlotSchema,
    body: SlotInputSchema,
  }),
  edit: endpoint({
    method: 'PUT',
    path: '/admin/delivery-slots/{id}',
    summary: 'Edit a delivery slot; placed orders keep the slot as they booked it',
    tag: 'Admin',
    access: 'admin',
    response: DeliverySlotSchema,
    params: IdParams,
    body: SlotInputSchema,
  }),
  retire: endpoint({
    method: 'POST',
    path: '/admin/delivery-slots/{id}/retire',
    summary:
      'Retire a delivery slot: offered to no one, kept on its orders (Standard cannot be retired: 409)',
    tag: 'Admin',
    access: 'admin',
    response: DeliverySlotSchema,
    refusals: [409],
    params: IdParams,
  }),
  restore: endpoint({
    method: 'POST',
    path: '/admin/delivery-slots/{id}/restore',
    summary: 'Offer a retired delivery slot again',
    tag: 'Admin',
    access: 'admin',
    response: DeliverySlotSchema,
    params: IdParams,
  }),
  closeDate: endpoint({
    method: 'PUT',
    path: '/admin/closed-dates/{date}',
    summary: 'Close a date for deliveries, with the message shoppers see (a second call changes the message)',
    tag: 'Admin',
    access: 'admin',
    response: ClosedDateSchema,
    params: ClosedDateParamsSchema,
    body: ClosureInputSchema,
  }),
  reopenDate: endpoint({
    method: 'DELETE',
    path: '/admin/closed-dates/{date}',
    summary: 'Open a closed date again (404 when it is not closed)',
    tag: 'Admin',
    access: 'admin',
    response: ClosedDateSchema,
    params: ClosedDateParamsSchema,
  }),
} as const;
