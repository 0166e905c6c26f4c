/** The contact form's one endpoint: anyone may write to the shop, within a rate limit. */
import * as v from 'valibot';
import { ContactSchema } from './contact.js';
import { endpoint } from './contract.js';

export const contactApi = {
  send: endpoint({
    method: 'POST',
    path: '/contact',
    summary: "Sends a shopper's message to the shop by mail",
    tag: 'Contact',
    access: 'public',
    response: v.object({ received: v.literal(true) }),
    refusals: [429],
    status: 202,
    body: ContactSchema,
  }),
} as const;
