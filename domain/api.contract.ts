/**
 * Every area's contract under one name each: an operation's OpenAPI
 * `operationId` is its area and its name in that area's contract
 * (`catalogue.getProducts`), and the API tests find the endpoint an answer
 * came from here. The browser imports the area it needs, never this.
 */
import { accountsApi } from './accounts.contract.js';
import { adminApi } from './admin.contract.js';
import { shopProfileApi } from './admin-profile.contract.js';
import { backupsApi } from './backups.contract.js';
import { catalogueApi } from './catalogue.contract.js';
import { contactApi } from './contact.contract.js';
import type { Endpoint } from './contract.js';
import { couponsApi } from './coupons.contract.js';
import { deliveryAreasApi, settingsApi } from './delivery-areas.contract.js';
import { giftsApi } from './gifts.contract.js';
import { goLiveApi } from './go-live.contract.js';
import { newsletterApi } from './newsletter.contract.js';
import { offerApi } from './offer.contract.js';
import { ordersContract } from './orders.contract.js';
import { paymentsContract } from './payments.contract.js';
import { postsApi } from './posts.contract.js';
import { pushApi } from './push.contract.js';
import { slotsApi } from './slots.contract.js';

export const apiContract = {
  catalogue: catalogueApi,
  posts: postsApi,
  accounts: accountsApi,
  orders: ordersContract,
  payments: paymentsContract,
  contact: contactApi,
  admin: adminApi,
  goLive: goLiveApi,
  backups: backupsApi,
  slots: slotsApi,
  deliveryAreas: deliveryAreasApi,
  settings: settingsApi,
  shopProfile: shopProfileApi,
  push: pushApi,
  gifts: giftsApi,
  newsletter: newsletterApi,
  offer: offerApi,
  coupons: couponsApi,
} as const;

const names = new Map<Endpoint, string>();
for (const [area, endpoints] of Object.entries(apiContract)) {
  for (const [name, e] of Object.entries(endpoints)) names.set(e as Endpoint, `${area}.${name}`);
}

/** `catalogue.getProducts` for `catalogueApi.getProducts`; undefined for an endpoint of no contract. */
export function operationIdOf(endpoint: Endpoint): string | undefined {
  return names.get(endpoint);
}

/** Every endpoint with its operation id. */
export function allEndpoints(): { operationId: string; endpoint: Endpoint }[] {
  return [...names].map(([endpoint, operationId]) => ({ operationId, endpoint }));
}
