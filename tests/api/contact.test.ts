import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_RULES } from '../../api/contact/contact.routes.js';
import { changeSettings } from '../../api/settings/settings.service.js';
import { CONTACT_LIMITS, contactMessages } from '../../domain/contact.js';
import type { Envelope } from '../../domain/envelope.js';
import { messages } from '../../domain/messages.js';
import { DEFAULT_PROFILE } from '../../domain/shop-profile.js';
import { makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { startSmtp, type TestSmtp, textOf } from '../support/smtp.js';

/**
 * The contact form's endpoint (issue 13, item 8): a message reaches the shop's
 * address over a real SMTP conversation, bad input gets the envelope with the
 * field's own message, and the limits hold per client address and per email.
 */
const SHOP = 'shop-inbox@example.test';
const envelope = (res: LightMyRequestResponse) => res.json() as Envelope<unknown>;

for (const dialect of DIALECTS) {
  describe(`contact on ${dialect}`, () => {
    let t: TestApp;
    let smtp: TestSmtp;
    let ipCounter = 0;
    // Each test speaks from its own address, so the per-address limit of one test never refuses another's.
    const from = () => `10.0.13.${++ipCounter}`;

    beforeAll(async () => {
      smtp = await startSmtp();
      t = await makeTestApp(dialect, { smtpUrl: smtp.url, shopEmail: SHOP, trustProxy: true });
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    const send = (payload: unknown, ip = from()) =>
      t.app.inject({
        method: 'POST',
        url: '/api/contact',
        headers: { 'x-forwarded-for': ip },
        payload: payload as Record<string, unknown>,
      });

    it('mails the message to the shop, with the shopper to reply to, and answers honestly', async () => {
      const res = await send({
        name: '  Asha Verma ',
        email: 'Asha@Example.test',
        subject: 'Birthday cake',
        message: 'Can you write "Happy 7th, Kabir" on a 1 kg truffle cake?\nThanks!',
      });
      expect(res.statusCode).toBe(202);
      expect(envelope(res)).toEqual({
        isSuccess: true,
        data: { received: true },
        sys_message: contactMessages.sent,
      });
      const mail = await smtp.take(SHOP);
      expect(mail.subject).toBe('Contact form: Birthday cake');
      expect(mail.raw).toMatch(/^Reply-To: asha@example\.test/im);
      const body = textOf(mail);
      expect(body).toContain('From: Asha Verma <asha@example.test>');
      expect(body).toContain('Happy 7th, Kabir');
    });

    it('refuses a form without name, email or message, naming the field', async () => {
      const cases: [unknown, string, string][] = [
        [{ email: 'a@example.test', message: 'Hi' }, 'name', contactMessages.nameRequired],
        [{ name: '   ', email: 'a@example.test', message: 'Hi' }, 'name', contactMessages.nameRequired],
        [{ name: 'A', message: 'Hi' }, 'email', messages.emailInvalid],
        [{ name: 'A', email: 'not-an-email', message: 'Hi' }, 'email', messages.emailInvalid],
        [{ name: 'A', email: 'a@example.test', message: ' \n ' }, 'message', contactMessages.messageRequired],
        [
          { name: 'A', email: 'a@example.test', message: 'x'.repeat(CONTACT_LIMITS.message + 1) },
          'message',
          contactMessages.tooLong('Message', CONTACT_LIMITS.message),
        ],
        [
          { name: 'A\u0007', email: 'a@example.test', message: 'Hi' },
          'name',
          contactMessages.notAllowed('Name'),
        ],
        [{ name: 'A', email: 'a@example.test', message: 42 }, 'message', contactMessages.messageRequired],
      ];
      const before = smtp.mails.length;
      for (const [payload, field, message] of cases) {
        const res = await send(payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(envelope(res)).toEqual({ isSuccess: false, data: { field }, sys_message: message });
      }
      const notJson = await t.app.inject({
        method: 'POST',
        url: '/api/contact',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': from() },
        payload: '[1,2',
      });
      expect(notJson.statusCode).toBe(400);
      expect(envelope(notJson).isSuccess).toBe(false);
      expect(smtp.mails.length).toBe(before);
    });

    it('refuses a line break or control character in the name and subject, keeps them in the message', async () => {
      const before = smtp.mails.length;
      const forged = [
        [{ name: 'Eve\r\nBcc: victim@example.test', email: 'eve@example.test', message: 'Hi' }, 'Name'],
        [{ name: 'Eve\nBcc: victim@example.test', email: 'eve@example.test', message: 'Hi' }, 'Name'],
        [{ name: 'Eve', email: 'eve@example.test', subject: 'Hi\r\nFrom: shop', message: 'Hi' }, 'Subject'],
        [{ name: 'Eve\u0007', email: 'eve@example.test', message: 'Hi' }, 'Name'],
      ] as const;
      for (const [payload, label] of forged) {
        const res = await send(payload);
        expect(res.statusCode).toBe(400);
        expect(envelope(res)).toEqual({
          isSuccess: false,
          data: { field: label.toLowerCase() },
          sys_message: contactMessages.notAllowed(label),
        });
      }
      expect(smtp.mails.length).toBe(before);
      const multiLine = await send({
        name: 'Asha',
        email: 'asha-lines@example.test',
        message: 'Line one\nLine two',
      });
      expect(multiLine.statusCode).toBe(202);
      // Other tests' mails to the shop may still be untaken: the one with this sender is this test's.
      let mail = await smtp.take(SHOP);
      while (!textOf(mail).includes('asha-lines@example.test')) mail = await smtp.take(SHOP);
      // SMTP carries lines as CRLF; the break itself is what must survive.
      expect(textOf(mail)).toMatch(/Line one\r?\nLine two/);
    });

    it('limits messages per client address and per email, with Retry-After', async () => {
      const ip = from();
      for (let i = 0; i < CONTACT_RULES.ip.limit; i++) {
        const res = await send({ name: 'B', email: `b${i}@example.test`, message: `Note ${i}` }, ip);
        expect(res.statusCode).toBe(202);
      }
      const refused = await send({ name: 'B', email: 'b-last@example.test', message: 'One more' }, ip);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(envelope(refused)).toEqual({
        isSuccess: false,
        data: null,
        sys_message: contactMessages.tooMany,
      });

      for (let i = 0; i < CONTACT_RULES.email.limit; i++) {
        expect((await send({ name: 'C', email: 'same@example.test', message: `Try ${i}` })).statusCode).toBe(
          202,
        );
      }
      const sameEmail = await send({ name: 'C', email: 'Same@Example.test', message: 'Again' });
      expect(sameEmail.statusCode).toBe(429);
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`contact on ${dialect} without SHOP_EMAIL`, () => {
    let t: TestApp;
    let smtp: TestSmtp;
    beforeAll(async () => {
      smtp = await startSmtp();
      t = await makeTestApp(dialect, {
        smtpUrl: smtp.url,
        shopEmail: null,
        adminEmail: null,
        adminPassword: null,
      });
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: { name: 'Asha', email: 'asha@example.test', message: 'Do you bake on Sundays?' },
      });

    it("writes to the profile's customer care email, and says so when the shop has no address at all", async () => {
      const refused = await send();
      expect(refused.statusCode).toBe(503);
      expect(envelope(refused)).toMatchObject({ isSuccess: false, sys_message: contactMessages.noInbox });
      expect(smtp.mails).toEqual([]);

      const care = 'care@shop.example.test';
      await changeSettings(t.app.db, {
        profile: { ...DEFAULT_PROFILE, care: { ...DEFAULT_PROFILE.care, email: care } },
      });
      expect((await send()).statusCode).toBe(202);
      expect(textOf(await smtp.take(care))).toContain('Do you bake on Sundays?');
    });
  });
}
