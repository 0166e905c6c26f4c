import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { senderAddress } from '../../api/mail/shop-signature.js';
import { hashToken } from '../../api/newsletter/newsletter.mails.js';
import { NEWSLETTER_RULES } from '../../api/newsletter/newsletter.routes.js';
import { changeSettings } from '../../api/settings/settings.service.js';
import type { Envelope } from '../../domain/envelope.js';
import { messages } from '../../domain/messages.js';
import { NEWSLETTER_PATHS, newsletterMessages } from '../../domain/newsletter.js';
import { DEFAULT_PROFILE, type ShopProfile } from '../../domain/shop-profile.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { type CapturedMail, startSmtp, type TestSmtp, textOf } from '../support/smtp.js';

/**
 * The footer's Subscribe (DESIGN.md departure 16), through the real app and a real SMTP
 * conversation: double opt-in, one answer for every address, the links of the mails (a
 * confirmation token only hashed in the database, RFC 8058 one-click unsubscribe), limits, and
 * the admin's count and export.
 */
const ORIGIN = 'https://shop.example.test';
const envelope = (res: LightMyRequestResponse) => res.json() as Envelope<unknown>;

function header(mail: CapturedMail, name: string): string {
  const head = (mail.raw.split(/\r?\n\r?\n/, 1)[0] ?? '').replace(/\r?\n[ \t]+/g, ' ');
  return head.match(new RegExp(`^${name}:[ \\t]*(.*)$`, 'im'))?.[1]?.trim() ?? '';
}
/** The token of a page link in the mail's text (it rides in the fragment). */
function pageToken(mail: CapturedMail, path: string): string {
  const link = textOf(mail).match(new RegExp(`${ORIGIN}${path}#(\\S+)`));
  if (!link?.[1]) throw new Error(`no ${path} link in "${mail.subject}"`);
  return link[1];
}
/** The one-click address of the List-Unsubscribe header, as a path to inject. */
function oneClickPath(mail: CapturedMail): string {
  const url = header(mail, 'List-Unsubscribe').match(/^<([^>]+)>$/)?.[1];
  if (!url) throw new Error(`no List-Unsubscribe in "${mail.subject}"`);
  expect(url.startsWith(`${ORIGIN}/api/newsletter/unsubscribe?token=`)).toBe(true);
  return url.slice(ORIGIN.length);
}

for (const dialect of DIALECTS) {
  describe(`newsletter on ${dialect}`, () => {
    let t: TestApp;
    let smtp: TestSmtp;
    let admin: { authorization: string };
    let shopper: { authorization: string };
    const log: string[] = [];
    let ipCounter = 0;
    // Each request speaks from its own address unless a test says otherwise, so limits meet only where meant to.
    const from = () => `10.0.35.${++ipCounter}`;
    let emailCounter = 0;
    const newEmail = () => `reader${++emailCounter}-${dialect}@example.test`;

    beforeAll(async () => {
      smtp = await startSmtp();
      t = await makeTestApp(
        dialect,
        { smtpUrl: smtp.url, publicUrl: ORIGIN, trustProxy: true },
        { logger: { level: 'info', stream: { write: (line: string) => log.push(line) } } },
      );
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      shopper = (await createUserWithToken(t.app)).auth;
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    const subscribe = (payload: unknown, ip = from()) =>
      t.app.inject({
        method: 'POST',
        url: '/api/subscribe',
        headers: { 'x-forwarded-for': ip },
        payload: payload as Record<string, unknown>,
      });
    const confirm = (token: string) =>
      t.app.inject({ method: 'POST', url: '/api/newsletter/confirm', payload: { token } });
    const counts = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/newsletter', headers: admin });
      expect(res.statusCode).toBe(200);
      return res.json().data as { confirmed: number; pending: number };
    };
    const row = (email: string) =>
      t.app.db.selectFrom('newsletter_subscribers').selectAll().where('email', '=', email).executeTakeFirst();

    it('subscribes after the confirmation mail: the link confirms, the address is counted, every mail can unsubscribe', async () => {
      const before = await counts();
      const res = await subscribe({ email: '  Asha.Reader@Example.TEST ' });
      expect(res.statusCode).toBe(202);
      expect(envelope(res)).toEqual({
        isSuccess: true,
        data: { received: true },
        sys_message: newsletterMessages.checkInbox,
      });
      expect(await counts()).toEqual({ confirmed: before.confirmed, pending: before.pending + 1 });

      const mail = await smtp.take('asha.reader@example.test');
      expect(mail.subject).toBe('Please confirm your subscription to Bakery & Blooms');
      expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      oneClickPath(mail);
      const token = pageToken(mail, NEWSLETTER_PATHS.confirm);
      expect(textOf(mail)).toContain(`Unsubscribe: ${ORIGIN}${NEWSLETTER_PATHS.unsubscribe}#`);
      // Only the token's hash is kept.
      const stored = await row('asha.reader@example.test');
      expect(stored?.status).toBe('pending');
      expect(stored?.confirm_hash).toBe(hashToken(token));
      expect(JSON.stringify(stored)).not.toContain(token);

      const confirmed = await confirm(token);
      expect(confirmed.statusCode).toBe(200);
      expect(envelope(confirmed)).toEqual({
        isSuccess: true,
        data: { alreadySubscribed: false },
        sys_message: newsletterMessages.subscribed,
      });
      expect(await counts()).toEqual({ confirmed: before.confirmed + 1, pending: before.pending });
      const welcome = await smtp.take('asha.reader@example.test');
      expect(welcome.subject).toBe("You're subscribed to Bakery & Blooms");
      expect(header(welcome, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      // The welcome mail's unsubscribe links are the confirmation mail's: one per address, for good.
      expect(oneClickPath(welcome)).toBe(oneClickPath(mail));
      expect(pageToken(welcome, NEWSLETTER_PATHS.unsubscribe)).toBe(
        pageToken(mail, NEWSLETTER_PATHS.unsubscribe),
      );

      // A second click (or a mail scanner's) says so and sends nothing more.
      const again = await confirm(token);
      expect(again.statusCode).toBe(200);
      expect(envelope(again)).toEqual({
        isSuccess: true,
        data: { alreadySubscribed: true },
        sys_message: newsletterMessages.alreadySubscribed,
      });
    });

    it('answers the same for a new, a waiting and a confirmed address; a waiting one gets a new link', async () => {
      const email = newEmail();
      const first = await subscribe({ email });
      const firstToken = pageToken(await smtp.take(email), NEWSLETTER_PATHS.confirm);
      const second = await subscribe({ email });
      const secondMail = await smtp.take(email);
      expect(secondMail.subject).toBe('Please confirm your subscription to Bakery & Blooms');
      const secondToken = pageToken(secondMail, NEWSLETTER_PATHS.confirm);
      expect(secondToken).not.toBe(firstToken);
      // The newest link is the one that works.
      expect((await confirm(firstToken)).statusCode).toBe(404);
      expect((await confirm(secondToken)).statusCode).toBe(200);
      await smtp.take(email); // the welcome mail
      const third = await subscribe({ email });
      const notice = await smtp.take(email);
      expect(notice.subject).toBe("You're already subscribed to Bakery & Blooms");
      expect(header(notice, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      expect(textOf(notice)).not.toMatch(/newsletter\/confirm/);
      for (const res of [first, second, third]) {
        expect(res.statusCode).toBe(202);
        expect(res.body).toBe(first.body);
      }
      expect((await row(email))?.status).toBe('confirmed');
    });

    it('refuses an unknown or malformed token, and an expired one as gone', async () => {
      const unknown = await confirm('A'.repeat(43));
      expect(unknown.statusCode).toBe(404);
      expect(envelope(unknown)).toEqual({
        isSuccess: false,
        data: null,
        sys_message: newsletterMessages.confirmUnknown,
      });
      for (const token of ['short', `${'A'.repeat(42)}!`, '']) {
        const bad = await confirm(token);
        expect(bad.statusCode, token).toBe(400);
        expect(envelope(bad).sys_message).toBe(newsletterMessages.linkIncomplete);
      }

      const email = newEmail();
      await subscribe({ email });
      const token = pageToken(await smtp.take(email), NEWSLETTER_PATHS.confirm);
      const before = await counts();
      await t.app.db
        .updateTable('newsletter_subscribers')
        .set({ confirm_expires_at: Date.now() - 1000 })
        .where('email', '=', email)
        .execute();
      const expired = await confirm(token);
      expect(expired.statusCode).toBe(410);
      expect(envelope(expired)).toEqual({
        isSuccess: false,
        data: null,
        sys_message: newsletterMessages.confirmExpired,
      });
      // An expired request is not counted as waiting, and subscribing again sends a working link.
      expect((await counts()).pending).toBe(before.pending - 1);
      await subscribe({ email });
      expect((await confirm(pageToken(await smtp.take(email), NEWSLETTER_PATHS.confirm))).statusCode).toBe(
        200,
      );
    });

    it('refuses a missing or bad email with the field named, and sends nothing', async () => {
      const before = smtp.mails.length;
      for (const payload of [
        {},
        { email: '' },
        { email: 'not-an-email' },
        { email: 42 },
        { email: 'a@b.c\r\nBcc: x@y.z' },
      ]) {
        const res = await subscribe(payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(envelope(res)).toEqual({
          isSuccess: false,
          data: { field: 'email' },
          sys_message: messages.emailInvalid,
        });
      }
      expect(smtp.mails.length).toBe(before);
    });

    it('limits requests per client address and per email, with Retry-After', async () => {
      const ip = from();
      for (let i = 0; i < NEWSLETTER_RULES.ip.limit; i++) {
        expect((await subscribe({ email: newEmail() }, ip)).statusCode).toBe(202);
      }
      const refused = await subscribe({ email: newEmail() }, ip);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(envelope(refused)).toEqual({
        isSuccess: false,
        data: null,
        sys_message: newsletterMessages.tooMany,
      });

      const email = newEmail();
      for (let i = 0; i < NEWSLETTER_RULES.email.limit; i++) {
        expect((await subscribe({ email })).statusCode).toBe(202);
      }
      const sameEmail = await subscribe({ email: email.toUpperCase() });
      expect(sameEmail.statusCode).toBe(429);
      // Past the limit, no more mail to that address: a request after it arrives, and still only the first ones did.
      const later = newEmail();
      await subscribe({ email: later });
      for (let i = 0; i < NEWSLETTER_RULES.email.limit; i++) await smtp.take(email);
      await smtp.take(later);
      expect(smtp.to(email)).toHaveLength(NEWSLETTER_RULES.email.limit);
    });

    it('unsubscribes with one click (RFC 8058) from the mail header, never logging the token', async () => {
      const email = newEmail();
      await subscribe({ email });
      const mail = await smtp.take(email);
      await confirm(pageToken(mail, NEWSLETTER_PATHS.confirm));
      const before = await counts();
      const path = oneClickPath(mail);
      const token = new URL(path, ORIGIN).searchParams.get('token') ?? '';

      // Opened in a browser (a GET), the address unsubscribes nothing and names the page that asks.
      const opened = await t.app.inject({ method: 'GET', url: path });
      expect(opened.statusCode).toBe(200);
      expect(envelope(opened)).toEqual({
        isSuccess: true,
        data: { page: `${ORIGIN}${NEWSLETTER_PATHS.unsubscribe}#${token}` },
        sys_message: newsletterMessages.openThePage,
      });
      expect(await counts()).toEqual(before);

      const res = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(res.statusCode).toBe(200);
      expect(envelope(res)).toEqual({
        isSuccess: true,
        data: { wasSubscribed: true },
        sys_message: newsletterMessages.unsubscribed,
      });
      expect(await row(email)).toBeUndefined();
      expect(await counts()).toEqual({ confirmed: before.confirmed - 1, pending: before.pending });

      // A mail client that tries again (multipart this time) is told the address is gone.
      const boundary = 'unsub-boundary';
      const again = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
      });
      expect(again.statusCode).toBe(200);
      expect(envelope(again)).toEqual({
        isSuccess: true,
        data: { wasSubscribed: false },
        sys_message: newsletterMessages.alreadyUnsubscribed,
      });

      // The page's button sends no body at all; a pending address goes the same way.
      const waiting = newEmail();
      await subscribe({ email: waiting });
      const pagePath = `/api/newsletter/unsubscribe?token=${pageToken(await smtp.take(waiting), NEWSLETTER_PATHS.unsubscribe)}`;
      expect((await t.app.inject({ method: 'POST', url: pagePath })).json().data).toEqual({
        wasSubscribed: true,
      });
      expect(await row(waiting)).toBeUndefined();

      // A forged or altered token is refused: the signature is the server's.
      const [id] = token.split('.');
      for (const forged of [`${id}.${'A'.repeat(43)}`, `${Number(id) + 1}.${token.split('.')[1]}`]) {
        for (const method of ['POST', 'GET'] as const) {
          const bad = await t.app.inject({ method, url: `/api/newsletter/unsubscribe?token=${forged}` });
          expect(bad.statusCode).toBe(404);
          expect(envelope(bad).sys_message).toBe(newsletterMessages.unsubscribeUnknown);
        }
      }
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/newsletter/unsubscribe?token=12' })).statusCode,
      ).toBe(400);
      expect(log.some((line) => line.includes('/api/subscribe'))).toBe(true);
      expect(log.filter((line) => line.includes(token.split('.')[1] ?? '-'))).toEqual([]);
    });

    it("exports the confirmed list for admins only: a BOM, a header row, each address's own unsubscribe link", async () => {
      for (const [method, url] of [
        ['GET', '/api/admin/newsletter'],
        ['GET', '/api/admin/newsletter/export'],
      ] as const) {
        expect((await t.app.inject({ method, url })).statusCode, url).toBe(401);
        const asShopper = await t.app.inject({ method, url, headers: shopper });
        expect(asShopper.statusCode, url).toBe(403);
        expect(envelope(asShopper).isSuccess).toBe(false);
      }

      const confirmed = 'zoe.kaur+news@example.test';
      await subscribe({ email: confirmed });
      const mail = await smtp.take(confirmed);
      await confirm(pageToken(mail, NEWSLETTER_PATHS.confirm));
      const waiting = newEmail();
      await subscribe({ email: waiting });
      await smtp.take(waiting);

      const res = await t.app.inject({ method: 'GET', url: '/api/admin/newsletter/export', headers: admin });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="subscribers-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect(res.headers['cache-control']).toBe('no-store');
      const bytes = res.rawPayload;
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = bytes.subarray(3).toString('utf8').split('\r\n');
      expect(lines.at(-1)).toBe('');
      expect(lines[0]).toBe('"Email","Asked (India time)","Confirmed (India time)","Unsubscribe link"');
      // Every cell is quoted, and none of these holds a quote or a comma of its own.
      const rows = lines.slice(1, -1).map((l) => l.slice(1, -1).split('","'));
      const { confirmed: count } = await counts();
      expect(rows).toHaveLength(count);
      const mine = rows.find((r) => r[0] === confirmed);
      expect(mine?.[2]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      expect(mine?.[3]).toBe(
        `${ORIGIN}${NEWSLETTER_PATHS.unsubscribe}#${pageToken(mail, NEWSLETTER_PATHS.unsubscribe)}`,
      );
      expect(rows.some((r) => r[0] === waiting)).toBe(false);
    });

    it("signs each mail with the shop's profile as saved when it is sent: sender name, subject, footer", async () => {
      const email = newEmail();
      await subscribe({ email });
      const before = await smtp.take(email);
      // The default profile: its name, no store, no care line, no legal name of its own.
      expect(header(before, 'From')).toBe(`"${DEFAULT_PROFILE.name}" <${senderAddress(t.config.mailFrom)}>`);
      expect(textOf(before).replace(/\r\n/g, '\n').trimEnd().split('\n').at(-1)).toBe(DEFAULT_PROFILE.name);

      await changeSettings(t.app.db, { profile: PROFILE });
      await subscribe({ email });
      const after = await smtp.take(email);
      expect(header(after, 'From')).toBe(`"Chai & Crumbs" <${senderAddress(t.config.mailFrom)}>`);
      expect(after.subject).toBe('Please confirm your subscription to Chai & Crumbs');
      const text = Buffer.from(textOf(after), 'latin1').toString('utf8').replace(/\r\n/g, '\n');
      expect(text).toContain('asked to hear from Chai & Crumbs.');
      // One signature separator; under it the unsubscribe line, then the shop's footer.
      expect(text.match(/\n-- \n/g)).toHaveLength(1);
      expect(text.trimEnd().split('\n').slice(-3)).toEqual([
        'Crumbs Foods Private Limited',
        '12 Mall Road, Shimla 171001',
        'Customer care: +91 172 400 1234 · care@chai.example',
      ]);
      // The FSSAI line is the order mails' (and a bill's), not a list mail's.
      expect(text).not.toContain('FSSAI');
      await changeSettings(t.app.db, { profile: DEFAULT_PROFILE });
    });
  });
}

const PROFILE: ShopProfile = {
  ...DEFAULT_PROFILE,
  name: 'Chai & Crumbs',
  shortName: 'Chai',
  legalName: 'Crumbs Foods Private Limited',
  fssai: '10012345678901',
  care: { phone: '+91 172 400 1234', whatsapp: '', email: 'care@chai.example', hours: '' },
  stores: [
    { name: 'Old Town', address: '12 Mall Road, Shimla', pin: '171001', phone: '', hours: '', mapUrl: '' },
    { name: 'Lakkar Bazar', address: '3 Lakkar Bazar, Shimla', pin: '', phone: '', hours: '', mapUrl: '' },
  ],
};
