/** The shop's mailing list (api/newsletter/README.md): double opt-in, one-click unsubscribe, the admin's count and export. */
import * as v from 'valibot';
import { endpoint } from './contract.js';
import {
  ConfirmedSchema,
  ConfirmSchema,
  SubscriberCountsSchema,
  SubscribeSchema,
  UnsubscribedSchema,
  UnsubscribePageSchema,
  UnsubscribeQuerySchema,
} from './newsletter.js';

const tag = 'Newsletter';

export const newsletterApi = {
  subscribe: endpoint({
    method: 'POST',
    path: '/subscribe',
    summary:
      'Ask to join the mailing list: a confirmation mail goes to the address; the answer is the same whether it is new, waiting or on the list',
    tag,
    access: 'public',
    status: 202,
    body: SubscribeSchema,
    response: v.object({ received: v.literal(true) }),
    refusals: [429],
  }),
  confirm: endpoint({
    method: 'POST',
    path: '/newsletter/confirm',
    summary:
      "Confirm a subscription with the token of the confirmation mail's link (404 unknown, 410 expired)",
    tag,
    access: 'public',
    body: ConfirmSchema,
    response: ConfirmedSchema,
    refusals: [404, 410],
  }),
  unsubscribe: endpoint({
    method: 'POST',
    path: '/newsletter/unsubscribe',
    summary:
      'Take an address off the list: the List-Unsubscribe one-click POST of RFC 8058 (any body, such as List-Unsubscribe=One-Click), or the unsubscribe page',
    tag,
    access: 'public',
    query: UnsubscribeQuerySchema,
    response: UnsubscribedSchema,
    refusals: [404],
  }),
  unsubscribePage: endpoint({
    method: 'GET',
    path: '/newsletter/unsubscribe',
    summary:
      'The one-click address opened in a browser: unsubscribes nothing (link scanners open links too), names the page that asks',
    tag,
    access: 'public',
    query: UnsubscribeQuerySchema,
    response: UnsubscribePageSchema,
    refusals: [404],
  }),
  counts: endpoint({
    method: 'GET',
    path: '/admin/newsletter',
    summary: 'How many addresses are on the list, and how many wait for their confirmation',
    tag,
    access: 'admin',
    response: SubscriberCountsSchema,
  }),
  export: endpoint({
    method: 'GET',
    path: '/admin/newsletter/export',
    summary:
      'The confirmed subscribers as CSV (UTF-8 with a BOM): email, when they confirmed, and their unsubscribe link',
    tag,
    access: 'admin',
    // The success is the file itself; `response` describes nothing the server serializes.
    response: v.never(),
    download: 'text/csv; charset=utf-8',
  }),
} as const;
