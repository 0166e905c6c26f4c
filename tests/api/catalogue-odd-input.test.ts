import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueApi } from '../../domain/catalogue.contract.js';
import type { Endpoint } from '../../domain/contract.js';
import { postsApi } from '../../domain/posts.contract.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * Never a 500 and never a stack trace: every catalogue and posts endpoint,
 * taken from the contracts themselves (so a new endpoint is covered without
 * editing this file), gets odd path ids, odd query strings, odd bodies, odd
 * content types and odd tokens. Each answer is the envelope with a 4xx (or,
 * for a public read that ignores what it does not know, a success); nothing
 * the barrage sends changes the catalogue.
 */
const ENDPOINTS: Endpoint[] = [...Object.values(catalogueApi), ...Object.values(postsApi)];

const ODD_IDS = [
  'abc',
  '0',
  '-1',
  '1.5',
  '1e3',
  '%00',
  '9'.repeat(30),
  '%F0%9F%8E%82',
  "1'--",
  '%20',
  'NaN',
  '0x10',
];

const ODD_QUERIES = [
  'categoryId=abc',
  'categoryId=0',
  'categoryId=-5',
  'categoryId[]=1',
  'categoryId=1&categoryId=2',
  `q=${'x'.repeat(5000)}`,
  'q[a]=1',
  'q=%00',
  'since=-1',
  'since=abc.1.2',
  'since=1.2',
  'limit=0',
  'limit=1e9',
  'productID=1e3',
  'productID=',
  'categoryID=%00',
  'categoryID=99999999',
  'productID=99999999',
  'ProductID=abc',
  '__proto__[x]=1',
];

type Body = { payload: string; type: string };
const json = (v: unknown): Body => ({ payload: JSON.stringify(v), type: 'application/json' });
const ODD_BODIES: Body[] = [
  json(null),
  json([]),
  json('text'),
  json(42),
  json(true),
  json({}),
  json({ title: null, Title: ['a'], price: {}, Price: -1, productID: 'x', CategoryName: { $ne: 1 } }),
  json({ __proto__: { isAdmin: true }, constructor: { prototype: { x: 1 } } }),
  // PostgreSQL cannot store NUL; a lone surrogate is not text.
  json({ CategoryName: 'a\u0000b', title: 'x\u0000y', description: 'd', price: 1, productID: 1, body: 'z' }),
  json({ CategoryName: 'a\ud800b', title: 'x\udc00y', description: 'd', price: 1, productID: 1, body: 'z' }),
  json({ title: 'x'.repeat(100_000), description: 'y', price: 1, productID: 1 }),
  json({ CategoryName: 'x'.repeat(300_000) }),
  { payload: `${'{"a":'.repeat(500)}1${'}'.repeat(500)}`, type: 'application/json' },
  { payload: '{', type: 'application/json' },
  { payload: '', type: 'application/json' },
  { payload: 'CategoryName=x&title=y', type: 'application/x-www-form-urlencoded' },
  { payload: 'hello', type: 'text/plain' },
  { payload: '<x/>', type: 'application/xml' },
  { payload: '--b\r\nbroken', type: 'multipart/form-data; boundary=b' },
  {
    payload: '--b\r\nContent-Disposition: form-data; name="Title"\r\n\r\nx\r\n--b--\r\n',
    type: 'multipart/form-data; boundary=b',
  },
];

const ODD_TOKENS = [
  'Bearer',
  'Bearer garbage',
  'Basic YWRtaW46YWRtaW4=',
  'Bearer a.b.c',
  `Bearer ${'x'.repeat(10_000)}`,
];

interface Call {
  method: Endpoint['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** A write must be refused; a public read may ignore what it does not know. */
  mustRefuse: boolean;
}

function callsFor(e: Endpoint, admin: Record<string, string>): Call[] {
  const base = `/api${e.path}`;
  const hasId = base.includes('{id}');
  const write = e.method !== 'GET';
  const urlWith = (id: string) => base.replace('{id}', id);
  const goodUrl = urlWith('1');
  const calls: Call[] = [];
  for (const id of hasId ? ODD_IDS : []) {
    calls.push({ method: e.method, url: urlWith(id), headers: admin, mustRefuse: true });
  }
  for (const q of ODD_QUERIES) {
    // A write whose target comes from the path takes its id from an odd path too, so it can never succeed.
    const url = `${hasId && write ? urlWith('abc') : goodUrl}?${q}`;
    calls.push({ method: e.method, url, headers: admin, mustRefuse: write });
  }
  if (write) {
    for (const b of ODD_BODIES) {
      calls.push({
        method: e.method,
        // The DELETEs of the spec take their id from the query: none given here.
        url: hasId ? urlWith(e.method === 'DELETE' ? 'x' : '1') : base,
        headers: { ...admin, 'content-type': b.type },
        payload: b.payload,
        mustRefuse: true,
      });
    }
    for (const token of ODD_TOKENS) {
      calls.push({ method: e.method, url: goodUrl, headers: { authorization: token }, mustRefuse: true });
    }
  } else {
    for (const tag of ['*', 'W/"x"', '"', 'x'.repeat(8000)]) {
      calls.push({ method: e.method, url: goodUrl, headers: { 'if-none-match': tag }, mustRefuse: false });
    }
  }
  return calls;
}

for (const dialect of DIALECTS) {
  describe(`odd input on every catalogue and posts endpoint (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    beforeAll(async () => {
      t = await makeTestApp(dialect);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      const cat = await t.app.inject({
        method: 'POST',
        url: '/api/AddCategory',
        headers: admin,
        payload: { CategoryName: 'Odd Cakes' },
      });
      expect(cat.statusCode).toBe(201);
      const post = await t.app.inject({
        method: 'POST',
        url: '/api/posts',
        headers: admin,
        payload: { title: 'Odd' },
      });
      expect(post.statusCode).toBe(201);
    });
    afterAll(async () => t.close());

    const state = async () => ({
      categories: (await t.app.inject({ method: 'GET', url: '/api/GetCategories' })).json().data,
      products: (await t.app.inject({ method: 'GET', url: '/api/ABCGetProducts' })).json().data,
      posts: (await t.app.inject({ method: 'GET', url: '/api/posts' })).json().data,
    });

    it('refuses NUL, control characters and half surrogate pairs in text, naming the field', async () => {
      const before = await state();
      const categoryID = (before.categories as { categoryID: number }[])[0]?.categoryID;
      const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#393' } })
        .png()
        .toBuffer();
      for (const bad of ['a\u0000b', 'a\u0007b', 'a\ud800b', 'a\udc00b']) {
        const cases: [string, string, unknown, string][] = [
          [
            'POST',
            '/api/AddCategory',
            { CategoryName: bad },
            'The category name contains characters that are not allowed.',
          ],
          ['POST', '/api/posts', { title: bad }, 'Title contains characters that are not allowed.'],
          [
            'POST',
            '/api/posts',
            { title: 'ok', body: bad },
            'Body contains characters that are not allowed.',
          ],
          [
            'PUT',
            '/api/UpdateProductDetails',
            { productID: 1, title: 'ok', description: bad, price: 5 },
            'Description contains characters that are not allowed.',
          ],
          [
            'PUT',
            '/api/UpdateProductDetails',
            {
              productID: 1,
              title: 'ok',
              description: 'ok',
              price: 5,
              variations: [{ variationName: bad, variationValue: '1', price: 1 }],
            },
            'Variation name contains characters that are not allowed.',
          ],
        ];
        for (const [method, url, payload, message] of cases) {
          const res = await t.app.inject({
            method: method as 'POST' | 'PUT',
            url,
            headers: { ...admin, 'content-type': 'application/json' },
            payload: JSON.stringify(payload),
          });
          expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
          expect(res.json().sys_message).toBe(message);
        }
        // A form part is UTF-8 bytes: a half pair arrives as U+FFFD, which is text; NUL and BEL are refused.
        if (/[\ud800-\udfff]/.test(bad)) continue;
        const form = new FormData();
        form.append('CategoryID', String(categoryID));
        for (const [k, val] of Object.entries({
          Title: bad,
          Description: 'd',
          LabelHeading: 'h',
          LabelDescription: 'l',
          Price: '5',
        }))
          form.append(k, val);
        form.append('images', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'p.png');
        const body = new Response(form);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/AddProductForDash',
          headers: { ...admin, 'content-type': body.headers.get('content-type') ?? '' },
          payload: Buffer.from(await body.arrayBuffer()),
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().sys_message).toBe('Title contains characters that are not allowed.');
      }
      expect(await state()).toEqual(before);
    });

    for (const e of ENDPOINTS) {
      it(`${e.method} ${e.path}`, async () => {
        const before = await state();
        const calls = callsFor(e, admin);
        expect(calls.length).toBeGreaterThan(10);
        for (const c of calls) {
          const res = await t.app.inject({
            method: c.method,
            url: c.url,
            headers: c.headers,
            ...(c.payload !== undefined ? { payload: c.payload } : {}),
          });
          const label = `${c.method} ${c.url.slice(0, 120)} ${JSON.stringify(c.headers).slice(0, 80)} ${String(c.payload).slice(0, 80)}`;
          expect(res.statusCode, label).toBeLessThan(500);
          if (res.statusCode === 304) {
            expect(c.mustRefuse, label).toBe(false);
            expect(res.body, label).toBe('');
            continue;
          }
          const body = res.json();
          expect(Object.keys(body).sort(), label).toEqual(['data', 'isSuccess', 'sys_message']);
          if (c.mustRefuse) expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
          if (res.statusCode >= 400) {
            expect(body.isSuccess, label).toBe(false);
            expect(body.sys_message, label).toMatch(/\w/);
            expect(body.sys_message, label).not.toMatch(
              /\bat .*\.(ts|js)|SQLITE|syntax error|stack|relation |constraint/i,
            );
          } else {
            expect(body.isSuccess, label).toBe(true);
          }
        }
        expect(await state()).toEqual(before);
      });
    }
  });
}
