/**
 * Delivery areas by pincode and the shop's settings: the public list of areas, and the admin's
 * Settings screens. Every admin write also moves the catalogue's version, so devices get the
 * changed pincode or setting, and only it, with their next catalogue sync.
 */
import * as v from 'valibot';
import { endpoint } from './contract.js';
import {
  AreaInputSchema,
  AreaPasteResultSchema,
  AreaPasteSchema,
  DeliveryAreaSchema,
  PincodeParamsSchema,
} from './delivery-areas.js';
import { SettingsPatchSchema, ShopSettingsSchema } from './settings.js';

export const deliveryAreasApi = {
  list: endpoint({
    method: 'GET',
    path: '/delivery-areas',
    summary:
      'The pincodes the shop delivers to: city, state, delivery charge (rupees), the slots each gets (null: all) and whether today is offered',
    tag: 'orders',
    access: 'public',
    response: v.array(DeliveryAreaSchema),
  }),
  put: endpoint({
    method: 'PUT',
    path: '/admin/delivery-areas/{pincode}',
    summary:
      'Add a pincode to the delivery areas, or change its city, state, charge, slots or same-day delivery',
    tag: 'Admin',
    access: 'admin',
    response: DeliveryAreaSchema,
    params: PincodeParamsSchema,
    body: AreaInputSchema,
    refusals: [422],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/admin/delivery-areas/{pincode}',
    summary:
      'Stop delivering to a pincode (placed orders keep their address; queued ones to it wait for the shopper)',
    tag: 'Admin',
    access: 'admin',
    response: DeliveryAreaSchema,
    params: PincodeParamsSchema,
  }),
  paste: endpoint({
    method: 'POST',
    path: '/admin/delivery-areas/import',
    summary:
      'Add or change many pincodes from pasted lines of pincode,city,state,charge; any bad line refuses the whole paste (400, each line named); more pincodes than the shop may have is a 422',
    tag: 'Admin',
    access: 'admin',
    response: AreaPasteResultSchema,
    body: AreaPasteSchema,
    refusals: [422],
  }),
} as const;

export const settingsApi = {
  get: endpoint({
    method: 'GET',
    path: '/admin/settings',
    summary: "The shop's settings, each with its saved value or its default",
    tag: 'Admin',
    access: 'admin',
    response: ShopSettingsSchema,
  }),
  change: endpoint({
    method: 'PUT',
    path: '/admin/settings',
    summary: 'Change some of the shop settings; every process reads the new values at once',
    tag: 'Admin',
    access: 'admin',
    response: ShopSettingsSchema,
    body: SettingsPatchSchema,
  }),
} as const;
