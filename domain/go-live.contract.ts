/**
 * "Make it yours" on the dashboard: the go-live checklist with what is left of the demo, and the
 * one step that removes the demo's catalogue. Admin only.
 */
import { endpoint } from './contract.js';
import { DemoRemovedSchema, GoLiveSchema } from './go-live.js';

export const goLiveApi = {
  get: endpoint({
    method: 'GET',
    path: '/admin/go-live',
    summary:
      'The go-live checklist (profile, FSSAI number, grievance officer, delivery areas, payments, policies read: each done or not, with the screen it is done on) and what is left of the demo catalogue (products, categories, pictures, the demo coupon)',
    tag: 'Admin',
    access: 'admin',
    response: GoLiveSchema,
  }),
  removeDemo: endpoint({
    method: 'POST',
    path: '/admin/demo/remove',
    summary:
      'Remove the demo catalogue: the demo products and categories nobody changed (soft deleted, so phones learn it from the feed), their pictures, the demo coupon (ended instead when an order used it) and the offer naming it. Products and categories the owner added or changed and every order stay. Answers what it removed; a second call removes nothing',
    tag: 'Admin',
    access: 'admin',
    response: DemoRemovedSchema,
  }),
} as const;
