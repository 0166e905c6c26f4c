/** Order updates on the shopper's devices (api/push/README.md). */
import { endpoint } from './contract.js';
import {
  PushEndpointSchema,
  PushKeySchema,
  PushPreferencesSchema,
  PushSubscribedSchema,
  PushSubscriptionSchema,
} from './push.js';

const tag = 'Push';

export const pushApi = {
  key: endpoint({
    method: 'GET',
    path: '/push/key',
    summary: "The shop's VAPID public key, for the browser's pushManager.subscribe",
    tag,
    access: 'public',
    response: PushKeySchema,
  }),
  subscribe: endpoint({
    method: 'POST',
    path: '/push/subscriptions',
    summary: "Keep this device's push subscription for the logged-in shopper's order updates",
    tag,
    access: 'user',
    status: 201,
    // 422: not a known push service (api/push/README.md); 429: too many new devices in an hour.
    refusals: [422, 429],
    body: PushSubscriptionSchema,
    response: PushSubscribedSchema,
  }),
  unsubscribe: endpoint({
    method: 'DELETE',
    path: '/push/subscriptions',
    summary: "Forget this device's push subscription (the shopper's own only)",
    tag,
    access: 'user',
    body: PushEndpointSchema,
    response: PushSubscribedSchema,
  }),
  preferences: endpoint({
    method: 'GET',
    path: '/push/preferences',
    summary: 'Whether the shopper wants order updates on their devices',
    tag,
    access: 'user',
    response: PushPreferencesSchema,
  }),
  setPreferences: endpoint({
    method: 'PUT',
    path: '/push/preferences',
    summary: 'Turn order updates on the devices on or off',
    tag,
    access: 'user',
    body: PushPreferencesSchema,
    response: PushPreferencesSchema,
  }),
};

export type PushApi = typeof pushApi;
