/**
 * The policies on the server, on SQLite and PostgreSQL: the owner's texts are cleaned by the
 * sanitizer before they are kept (no tag, no event handler survives), a text over 20,000 characters
 * is refused naming its policy with nothing saved, only an admin writes them, the catalogue feed
 * carries them to phones (and the "read" mark stays on the server), putting a default back removes
 * its text, and each policy page is a public page with its own head.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueDelta } from '../../domain/catalogue.js';
import { POLICIES, POLICY_KEYS, policyMessages } from '../../domain/policies.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { PAGE_SHELL } from '../support/page-shell.js';

type Auth = { authorization: string };

for (const dialect of DIALECTS) {
  describe(`policies on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let shopper: Auth;
    let webDir: string;

    beforeAll(async () => {
      webDir = mkdtempSync(path.join(tmpdir(), 'policies-web-'));
      writeFileSync(path.join(webDir, 'index.html'), PAGE_SHELL);
      t = await makeTestApp(dialect, { webDir });
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      shopper = (await createUserWithToken(t.app)).auth;
    });
    afterAll(async () => {
      await t.close();
      rmSync(webDir, { recursive: true, force: true });
    });

    const change = (payload: object, auth: Auth | null = admin) =>
      t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: auth ?? {}, payload });
    const settings = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: admin });
      expect(res.statusCode).toBe(200);
      return res.json().data;
    };
    const feed = async (since: string | null): Promise<CatalogueDelta> => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/sync/catalogue${since === null ? '' : `?since=${since}`}`,
      });
      expect(res.statusCode).toBe(200);
      return res.json().data;
    };

    it('keeps a text cleaned: no script, no event handler, the words and the formatting kept', async () => {
      const text = [
        '## Delivery',
        'We deliver <script>alert("x")</script>every day & night.',
        '- Tom & Jerry <img src=x onerror="alert(1)"> 5 < 6',
        '&lt;script&gt;alert(2)&lt;/script&gt;**bold** https://example.com/a?b=1&c=2',
      ].join('\n');
      const res = await change({ policies: { shipping: text } });
      expect(res.statusCode).toBe(200);
      const kept = (await settings()).policies.shipping as string;
      expect(res.json().data.policies.shipping).toBe(kept);
      expect(kept).not.toMatch(/<script|onerror|<img|alert\("x"\)/i);
      expect(kept).not.toMatch(/<\/?[a-z]/i);
      expect(kept).toContain('## Delivery');
      expect(kept).toContain('We deliver every day & night.');
      expect(kept).toContain('- Tom & Jerry');
      expect(kept).toContain('5 < 6');
      expect(kept).toContain('**bold** https://example.com/a?b=1&c=2');
    });

    it('refuses a text of 20,001 characters, naming the policy, and saves nothing', async () => {
      const before = await settings();
      const res = await change({ policies: { shipping: 'Short.', terms: 'x'.repeat(20_001) } });
      expect(res.statusCode).toBe(400);
      expect(res.json().data.field).toBe('policies.terms');
      expect(res.json().sys_message).toBe(policyMessages.text);
      expect(await settings()).toEqual(before);
      expect((await change({ policies: { ...before.policies, terms: 'x'.repeat(20_000) } })).statusCode).toBe(
        200,
      );
      const notText = await change({ policies: { privacy: 42 } });
      expect(notText.statusCode).toBe(400);
      expect(notText.json().data.field).toBe('policies.privacy');
      // A policy the shop does not have is not kept.
      expect((await change({ policies: { refunds: 'Our refunds.' } })).statusCode).toBe(200);
      expect((await settings()).policies).toEqual({});
    });

    it('lets only an admin write the policies or mark them read: 401 logged out, 403 for a shopper', async () => {
      const before = await settings();
      for (const payload of [{ policies: { terms: 'Mine.' } }, { policiesReviewed: true }]) {
        expect((await change(payload, null)).statusCode).toBe(401);
        const refused = await change(payload, shopper);
        expect(refused.statusCode).toBe(403);
      }
      expect(await settings()).toEqual(before);
    });

    it('carries the texts to phones in the feed, the read mark staying on the server', async () => {
      const { cursor } = await feed(null);
      expect((await change({ policies: { cancellation: 'Ask us **first**.' } })).statusCode).toBe(200);
      const delta = await feed(cursor);
      expect(delta.settings).toEqual({ policies: { cancellation: 'Ask us **first**.' } });
      expect((await change({ policiesReviewed: true })).statusCode).toBe(200);
      expect((await settings()).policiesReviewed).toBe(true);
      const full = await feed(null);
      expect(full.settings?.policies).toEqual({ cancellation: 'Ask us **first**.' });
      expect(full.settings).not.toHaveProperty('policiesReviewed');
    });

    it('puts a default back by removing its text, the others kept', async () => {
      const written = { shipping: 'Our shipping.', terms: 'Our terms.' };
      expect((await change({ policies: written })).statusCode).toBe(200);
      const res = await change({ policies: { shipping: 'Our shipping.' } });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.policies).toEqual({ shipping: 'Our shipping.' });
      expect((await settings()).policies).toEqual({ shipping: 'Our shipping.' });
      expect((await change({ policies: {} })).statusCode).toBe(200);
      expect((await settings()).policies).toEqual({});
    });

    it('serves each policy page as a public page with its own title', async () => {
      for (const key of POLICY_KEYS) {
        const res = await t.app.inject({ method: 'GET', url: POLICIES[key].path });
        expect(res.statusCode, key).toBe(200);
        expect(res.body).toContain(`<title>${POLICIES[key].title} | `);
        expect(res.body).not.toMatch(/<meta name="robots" content="noindex/);
      }
      const sitemap = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
      for (const key of POLICY_KEYS) expect(sitemap.body).toContain(`${POLICIES[key].path}</loc>`);
    });
  });
}
