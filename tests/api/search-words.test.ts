/**
 * The shop's search words on the server, on SQLite and PostgreSQL: `GET /api/search` finds every
 * word a shopper reads (an occasion, the label), the shop's default short forms and Hindi words,
 * typos, all words in any order; the `searchSynonyms` setting is checked by `PUT /admin/settings`
 * (a 400 naming it, nothing saved), reaches phones in the feed's settings, and a new synonym saved
 * through one process is found by a second one on the same database at once.
 */

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCatalogue } from '../../api/seed/demo.js';
import { DEFAULT_SYNONYMS, SYNONYMS_MAX, synonymMessages } from '../../domain/search-synonyms.js';
import { buildTestApp, createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

interface Hit {
  productID: number;
  title: string;
  occasions?: string[];
}

for (const dialect of DIALECTS) {
  describe(`search words on ${dialect}`, () => {
    let t: TestApp;
    let admin: { authorization: string };
    let shopper: { authorization: string };

    const find = async (q: string, app: FastifyInstance = t.app): Promise<Hit[]> => {
      const res = await app.inject({ method: 'GET', url: `/api/search?q=${encodeURIComponent(q)}` });
      expect(res.statusCode, q).toBe(200);
      return res.json().data as Hit[];
    };
    const save = (body: unknown, who = admin, app: FastifyInstance = t.app) =>
      app.inject({ method: 'PUT', url: '/api/admin/settings', headers: who, payload: body as object });
    const stored = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: admin });
      return res.json().data.searchSynonyms as unknown;
    };

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      await seedDemoCatalogue(t.app.db, dialect, t.app.media);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      shopper = (await createUserWithToken(t.app)).auth;
    });
    afterAll(() => t?.close());

    it('finds occasions, label words, short forms, Hindi and Punjabi words and typos; every word must match', async () => {
      const birthday = await find('birthday');
      expect(birthday.length).toBeGreaterThan(0);
      expect(
        birthday.every((p) => p.occasions?.includes('Birthday') || /birthday/i.test(JSON.stringify(p))),
      ).toBe(true);
      const ids = async (q: string) => (await find(q)).map((p) => p.productID).sort((a, b) => a - b);
      // Widened words find the same products (ranked below any found as typed would be).
      expect(await ids('bday')).toEqual(await ids('birthday'));
      expect(await ids('जन्मदिन')).toEqual(await ids('birthday'));
      const cakes = await find('cake');
      expect(await ids('ਕੇਕ')).toEqual(await ids('cake'));
      expect((await find('chocolate')).length).toBeGreaterThan(0);
      expect(await ids('chcoolate')).toEqual(await ids('chocolate'));
      // Two words: only what holds both, whichever comes first.
      const both = await ids('chocolate cake');
      expect(await ids('cake chocolate')).toEqual(both);
      expect(both.every((id) => cakes.some((c) => c.productID === id))).toBe(true);
      expect(await find('chocolate zzzzz')).toEqual([]);
      expect(await find('zzzzz')).toEqual([]);
    });

    it('checks the synonyms setting: a 400 naming it for each bad list, nothing saved', async () => {
      expect(await stored()).toEqual(DEFAULT_SYNONYMS);
      const bad: [unknown, string][] = [
        [[{ word: 'bday', means: 'bday' }], synonymMessages.itself],
        [[{ word: '  ', means: 'cake' }], synonymMessages.word],
        [[{ word: 'x'.repeat(31), means: 'cake' }], synonymMessages.word],
        [[{ word: 'cakey' }], synonymMessages.list],
        ['bday=birthday', synonymMessages.list],
        [
          Array.from({ length: SYNONYMS_MAX + 1 }, (_, i) => ({ word: `w${i}`, means: 'cake' })),
          synonymMessages.list,
        ],
      ];
      for (const [searchSynonyms, says] of bad) {
        const res = await save({ searchSynonyms });
        expect(res.statusCode, JSON.stringify(searchSynonyms).slice(0, 60)).toBe(400);
        expect(res.json()).toMatchObject({ isSuccess: false, sys_message: says });
        expect(JSON.stringify(res.json().data)).toContain('searchSynonyms');
      }
      expect(await stored()).toEqual(DEFAULT_SYNONYMS);
      expect((await save({ searchSynonyms: [] }, shopper)).statusCode).toBe(403);
    });

    it('a synonym saved through one process is found by a second one at once, and reaches phones in the feed', async () => {
      const second = await buildTestApp({ config: t.config, db: t.db });
      await second.ready();
      try {
        expect(await find('kuchen', second)).toEqual([]);
        const mine = [...DEFAULT_SYNONYMS, { word: 'Kuchen', means: 'cake' }];
        expect((await save({ searchSynonyms: mine })).statusCode).toBe(200);
        expect((await find('kuchen', second)).map((p) => p.productID).sort()).toEqual(
          (await find('cake', second)).map((p) => p.productID).sort(),
        );
        const feed = await t.app.inject({ method: 'GET', url: '/api/sync/catalogue' });
        const settings = feed.json().data.settings as Record<string, unknown>;
        expect(settings.searchSynonyms).toContainEqual({ word: 'kuchen', means: 'cake' });
      } finally {
        await second.close();
      }
    });
  });
}
