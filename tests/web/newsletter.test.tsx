import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../domain/messages.js';
import { NEWSLETTER_PATHS, newsletterMessages } from '../../domain/newsletter.js';
import { makeTestApp, type TestApp } from '../support/app.js';
import { type CapturedMail, startSmtp, type TestSmtp, textOf } from '../support/smtp.js';
import { renderAt, resetStore } from './storefront-fixtures.js';

/**
 * The footer's Subscribe and the pages its mails lead to, in jsdom against the real server
 * (SQLite in memory, mail over real SMTP): what the form says in each case, that offline keeps
 * what was typed, and that the mail's links confirm and unsubscribe. Relative URLs resolve
 * against the server's address, as in account-forms.test.tsx.
 */
let t: TestApp;
let smtp: TestSmtp;
const NodeRequest = globalThis.Request;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await makeTestApp('sqlite', { smtpUrl: smtp.url });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const base = `http://127.0.0.1:${address.port}`;
  globalThis.Request = class extends NodeRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' && input.startsWith('/') ? new URL(input, base) : input, init);
    }
  } as typeof Request;
});
afterAll(async () => {
  globalThis.Request = NodeRequest;
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  await resetStore();
});
afterEach(() => {
  cleanup();
});

function offline(isOffline: boolean): void {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => !isOffline });
}
afterEach(() => {
  delete (navigator as { onLine?: boolean }).onLine;
});

const tokenIn = (mail: CapturedMail, path: string) =>
  textOf(mail).match(new RegExp(`${path}#(\\S+)`))?.[1] ?? '';
const heading = (name: string) => screen.findByRole('heading', { level: 1, name });
/** The screen itself: the alert region repeats its words. */
const main = () => within(screen.getByRole('main'));

describe('the footer subscribe form', () => {
  it('checks the address, keeps it offline, then says to check the inbox; the link confirms', async () => {
    renderAt('/home');
    const footer = await screen.findByRole('contentinfo');
    const form = within(footer).getByRole('form', { name: 'Stay in touch' });
    const input = within(form).getByRole('textbox', { name: 'Email address' }) as HTMLInputElement;
    const button = within(form).getByRole('button', { name: 'Subscribe' });

    fireEvent.change(input, { target: { value: 'not an email' } });
    fireEvent.click(button);
    await within(form).findByText(messages.emailInvalid);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('subscribe-outcome');
    expect(document.activeElement).toBe(input);

    fireEvent.change(input, { target: { value: 'Meera@Example.test' } });
    offline(true);
    fireEvent.click(button);
    await within(form).findByText(newsletterMessages.offline);
    expect(input.value).toBe('Meera@Example.test');
    // The app's alert region says it too.
    expect(
      within(document.querySelector('.alerts') as HTMLElement).getByText(newsletterMessages.offline),
    ).toBeTruthy();

    offline(false);
    fireEvent.click(button);
    await within(form).findByText(newsletterMessages.checkInbox);
    expect(input.value).toBe('');
    expect(input.getAttribute('aria-invalid')).toBeNull();

    const mail = await smtp.take('meera@example.test');
    const token = tokenIn(mail, NEWSLETTER_PATHS.confirm);
    cleanup();
    renderAt(`${NEWSLETTER_PATHS.confirm}#${token}`);
    await heading(newsletterMessages.subscribed);
    expect(main().getByText(newsletterMessages.subscribedText)).toBeTruthy();
    const row = await t.db.kysely
      .selectFrom('newsletter_subscribers')
      .select('status')
      .where('email', '=', 'meera@example.test')
      .executeTakeFirst();
    expect(row?.status).toBe('confirmed');

    // The welcome mail's unsubscribe link asks first, then takes the address off the list.
    const welcome = await smtp.take('meera@example.test');
    cleanup();
    renderAt(`${NEWSLETTER_PATHS.unsubscribe}#${tokenIn(welcome, NEWSLETTER_PATHS.unsubscribe)}`);
    await heading('Unsubscribe');
    expect(main().getByText(newsletterMessages.unsubscribeAsk)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    await heading(newsletterMessages.unsubscribedTitle);
    expect(main().getByText(newsletterMessages.unsubscribedText)).toBeTruthy();
    const gone = await t.db.kysely
      .selectFrom('newsletter_subscribers')
      .select('id')
      .where('email', '=', 'meera@example.test')
      .executeTakeFirst();
    expect(gone).toBeUndefined();
  });

  it('says when a confirmation link is unknown or cut short, and offers the form again', async () => {
    renderAt(`${NEWSLETTER_PATHS.confirm}#${'A'.repeat(43)}`);
    await heading(newsletterMessages.linkFails);
    expect(main().getByText(newsletterMessages.confirmUnknown)).toBeTruthy();
    cleanup();
    renderAt(`${NEWSLETTER_PATHS.confirm}#abc`);
    await heading(newsletterMessages.linkFails);
    expect(main().getByText(newsletterMessages.linkIncomplete)).toBeTruthy();
    expect(await screen.findByRole('form', { name: 'Stay in touch' })).toBeTruthy();
  });

  it('offline, the confirm page says it needs a connection and confirms on Try again', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/subscribe',
      payload: { email: 'dev@example.test' },
    });
    expect(res.statusCode).toBe(202);
    const token = tokenIn(await smtp.take('dev@example.test'), NEWSLETTER_PATHS.confirm);
    offline(true);
    renderAt(`${NEWSLETTER_PATHS.confirm}#${token}`);
    await heading(newsletterMessages.notConfirmed);
    expect(main().getByText(newsletterMessages.confirmNeedsConnection)).toBeTruthy();
    offline(false);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await heading(newsletterMessages.subscribed);
  });
});
