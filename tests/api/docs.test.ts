import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastifyPath } from '../../api/http/route.js';
import { catalogueApi } from '../../domain/catalogue.contract.js';
import { postsApi } from '../../domain/posts.contract.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * `/api/docs` describes every route the server has under `/api`, and the
 * catalogue endpoints of the spec (section 7) answer at their documented path
 * and method with the documented field names. The route list comes from
 * Fastify's own route table (`printRoutes`), so a route added later without a
 * description fails here.
 */
type Seen = { method: string; url: string };

/**
 * Reads `printRoutes({ commonPrefix: false })`: one line per node, four
 * columns of tree drawing per level, `<segment> (<METHODS>)`; a child's
 * segment continues its parent's path. HEAD is Fastify's automatic twin of GET.
 */
function routesOf(app: FastifyInstance): Seen[] {
  const stack: string[] = [];
  const out: Seen[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.search(/[└├]── /);
    if (at < 0) continue;
    const depth = at / 4;
    const m = /^(.*) \(([^)]*)\)$/.exec(line.slice(at + 4));
    if (!m) throw new Error(`unreadable route line: ${line}`);
    const [, segment = '', methods = ''] = m;
    stack.length = depth;
    const url = (stack[depth - 1] ?? '') + segment;
    stack.push(url);
    for (const method of methods.split(',').map((s) => s.trim())) {
      if (method && method !== '-' && method !== 'HEAD') out.push({ method, url });
    }
  }
  return out;
}

/** Fastify writes params as `:id`, OpenAPI as `{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

type OpenApi = { openapi: string; paths: Record<string, Record<string, { summary?: string }>> };

describe('the OpenAPI description at /api/docs', () => {
  let t: TestApp;
  let api: Seen[];
  let doc: OpenApi;

  beforeAll(async () => {
    t = await makeTestApp('sqlite');
    api = routesOf(t.app).filter((r) => r.url.startsWith('/api/'));
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => t.close());

  it('reads the route table (the parser is checked against routes that must be there)', () => {
    const keys = api.map((r) => `${r.method} ${r.url}`);
    for (const k of [
      'GET /api/ABCGetProducts',
      'GET /api/ABCGetProducts/:id',
      'GET /api/posts/:id',
      'DELETE /api/posts/:id',
      'POST /api/AddProductForDash',
      'GET /api/health',
    ]) {
      expect(keys).toContain(k);
    }
    expect(api.length).toBeGreaterThan(30);
  });

  it('is OpenAPI 3 and lists every API route with its method and a summary', () => {
    expect(doc.openapi).toMatch(/^3\./);
    const missing: string[] = [];
    for (const r of api) {
      if (r.url === '/api/docs') continue; // the description itself
      const op = doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()];
      if (!op) missing.push(`${r.method} ${r.url}`);
      else if (!op.summary) missing.push(`${r.method} ${r.url} (no summary)`);
    }
    expect(missing).toEqual([]);
  });

  it('describes the add-product form as multipart with the spec field names', () => {
    const body = (
      doc.paths['/api/AddProductForDash']?.post as unknown as
        | { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } }
        | undefined
    )?.requestBody;
    const form = body?.content['multipart/form-data']?.schema;
    expect(Object.keys(form?.properties ?? {}).sort()).toEqual(
      [
        'CategoryID',
        'Description',
        'LabelDescription',
        'LabelHeading',
        'Price',
        'SizeOrWeight',
        'Title',
        'images',
        'variationsJson',
      ].sort(),
    );
  });

  it("shows the spec's own field names for the catalogue's payloads and queries", () => {
    type Op = {
      parameters?: { in: string; name: string; required?: boolean }[];
      requestBody?: {
        content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }>;
      };
    };
    const op = (p: string, m: string) => doc.paths[p]?.[m] as Op | undefined;
    const query = (p: string, m: string) =>
      (op(p, m)?.parameters ?? [])
        .filter((x) => x.in === 'query')
        .map((x) => `${x.name}${x.required ? '!' : ''}`);
    expect(query('/api/DeleteCategory', 'delete')).toEqual(['categoryID!']);
    expect(query('/api/DeleteProduct', 'delete')).toEqual(['productID!']);
    expect(query('/api/ABCGetProducts', 'get')).toEqual(['categoryId']);
    expect(query('/api/search', 'get')).toEqual(['q']);
    expect(query('/api/sync/catalogue', 'get')).toEqual(['since', 'limit']);
    const addCategory = op('/api/AddCategory', 'post')?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(addCategory?.properties ?? {})).toEqual(['CategoryName']);
    expect(addCategory?.required).toEqual(['CategoryName']);
    const update = op('/api/UpdateProductDetails', 'put')?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(update?.properties ?? {})).toEqual(
      expect.arrayContaining(['productID', 'title', 'description', 'price', 'categories', 'variations']),
    );
    expect(Object.keys(doc.paths['/api/posts/{id}'] ?? {}).sort()).toEqual(['delete', 'get', 'put']);
  });

  it('marks every endpoint that needs a token (and only those) with the bearer scheme', () => {
    const endpoints = [...Object.values(catalogueApi), ...Object.values(postsApi)];
    for (const e of endpoints) {
      const op = doc.paths[openApiPath(fastifyPath(e.path))]?.[e.method.toLowerCase()] as
        | { security?: unknown }
        | undefined;
      expect(op, `${e.method} ${e.path}`).toBeDefined();
      expect(op?.security, `${e.method} ${e.path}`).toEqual(
        e.access === 'public' ? undefined : [{ bearer: [] }],
      );
    }
  });

  it('documents no route the server does not have', () => {
    const served = new Set(api.map((r) => `${r.method.toLowerCase()} ${openApiPath(r.url)}`));
    const extra: string[] = [];
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const m of Object.keys(ops)) {
        if (['get', 'post', 'put', 'delete', 'patch'].includes(m) && !served.has(`${m} ${p}`))
          extra.push(`${m} ${p}`);
      }
    }
    expect(extra).toEqual([]);
  });
});

/** The spec's product fields (section 3), with the types a spec client reads. */
function expectSpecProduct(p: Record<string, unknown>) {
  expect(typeof p.productID).toBe('number');
  for (const k of [
    'title',
    'description',
    'imagePath',
    'categoryName',
    'labelHeading',
    'labelDescription',
    'sizeOrWeight',
  ])
    expect(typeof p[k], k).toBe('string');
  expect(typeof p.price).toBe('number');
  expect(Array.isArray(p.categories)).toBe(true);
  for (const c of p.categories as Record<string, unknown>[]) {
    expect(typeof c.categoryID).toBe('number');
    expect(typeof c.categoryName).toBe('string');
  }
  expect(Array.isArray(p.variations)).toBe(true);
  for (const v of p.variations as Record<string, unknown>[]) {
    expect(Object.keys(v)).toEqual(expect.arrayContaining(['variationName', 'variationValue', 'price']));
  }
}

for (const dialect of DIALECTS) {
  describe(`catalogue endpoints of spec section 7 on ${dialect}`, () => {
    let t: TestApp;
    let admin: { authorization: string };
    beforeAll(async () => {
      t = await makeTestApp(dialect);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
    });
    afterAll(async () => t.close());

    const call = (
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: string,
      extra: Record<string, unknown> = {},
    ) => t.app.inject({ method, url, headers: admin, ...extra });

    it('walks the list: documented path, method, payload field names and envelope', async () => {
      const envelope = (body: Record<string, unknown>) =>
        expect(Object.keys(body).sort()).toEqual(['data', 'isSuccess', 'sys_message']);

      // POST /AddCategory | CategoryName
      const added = await call('POST', '/api/AddCategory', { payload: { CategoryName: 'Spec Cakes' } });
      expect(added.statusCode).toBe(201);
      envelope(added.json());
      const categoryID = added.json().data.categoryID as number;
      const other = (
        await call('POST', '/api/AddCategory', { payload: { CategoryName: 'Spec Gifts' } })
      ).json().data.categoryID as number;

      // GET /GetCategories | reads isSuccess, data
      const cats = (await call('GET', '/api/GetCategories')).json();
      envelope(cats);
      expect(cats.data).toContainEqual({ categoryID, categoryName: 'Spec Cakes' });

      // POST /AddProductForDash | multipart: CategoryID repeated, Title, Description, LabelHeading,
      // LabelDescription, Price, SizeOrWeight, images (files), variationsJson
      const form = new FormData();
      form.append('CategoryID', String(categoryID));
      form.append('CategoryID', String(other));
      form.append('Title', 'Spec Truffle');
      form.append('Description', '<p>Rich</p>');
      form.append('LabelHeading', 'Eggless');
      form.append('LabelDescription', 'Fresh');
      form.append('Price', '650');
      form.append('SizeOrWeight', '500 g');
      form.append(
        'variationsJson',
        JSON.stringify([{ VariationName: 'Weight', VariationType: '1 kg', Price: 1200 }]),
      );
      const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#a33' } })
        .png()
        .toBuffer();
      form.append('images', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'cake.png');
      const res = new Response(form);
      const addProduct = await call('POST', '/api/AddProductForDash', {
        payload: Buffer.from(await res.arrayBuffer()),
        headers: { ...admin, 'content-type': res.headers.get('content-type') ?? '' },
      });
      expect(addProduct.statusCode).toBe(201);
      envelope(addProduct.json());
      const product = addProduct.json().data;
      expectSpecProduct(product);
      const id = product.productID as number;
      expect(product.categories.map((c: { categoryID: number }) => c.categoryID).sort()).toEqual(
        [categoryID, other].sort(),
      );
      expect(product.variations).toMatchObject([
        { variationName: 'Weight', variationValue: '1 kg', price: 1200 },
      ]);

      // GET /ABCGetProducts, /ABCGetProducts/{id}, /ABCGetProducts?categoryId={id}, /GetProductById/{id}
      for (const url of ['/api/ABCGetProducts', `/api/ABCGetProducts?categoryId=${categoryID}`]) {
        const list = (await call('GET', url)).json();
        envelope(list);
        expect(list.data.map((p: { productID: number }) => p.productID)).toContain(id);
        for (const p of list.data) expectSpecProduct(p);
      }
      for (const url of [`/api/ABCGetProducts/${id}`, `/api/GetProductById/${id}`]) {
        const one = (await call('GET', url)).json();
        envelope(one);
        expectSpecProduct(one.data);
        expect(one.data.productID).toBe(id);
      }

      // GET /search?q={text}
      const found = (await call('GET', '/api/search?q=truffle')).json();
      envelope(found);
      expect(found.data.map((p: { productID: number }) => p.productID)).toEqual([id]);

      // GET /GetTopProductsByCategory | grouped by category name, at most 6 each
      const top = (await call('GET', '/api/GetTopProductsByCategory')).json();
      envelope(top);
      expect(top.data).toContainEqual(
        expect.objectContaining({
          categoryID,
          categoryName: 'Spec Cakes',
          products: [expect.objectContaining({ productID: id })],
        }),
      );

      // PUT /UpdateProductDetails | the full product object; reads isSuccess
      const updated = await call('PUT', '/api/UpdateProductDetails', {
        payload: { ...product, title: 'Spec Truffle Deluxe', price: 700 },
      });
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject({
        isSuccess: true,
        data: { title: 'Spec Truffle Deluxe', price: 700 },
      });

      // DELETE /DeleteCategory?categoryID={id} | reads isSuccess, sys_message
      const delCat = (await call('DELETE', `/api/DeleteCategory?categoryID=${other}`)).json();
      envelope(delCat);
      expect(delCat.isSuccess).toBe(true);
      expect(delCat.sys_message).toEqual(expect.any(String));

      // DELETE /DeleteProduct?productID={id} | reads isSuccess, sys_message
      const delProduct = (await call('DELETE', `/api/DeleteProduct?productID=${id}`)).json();
      expect(delProduct).toMatchObject({ isSuccess: true, sys_message: 'Product deleted successfully!' });
      expect((await call('GET', `/api/GetProductById/${id}`)).statusCode).toBe(404);

      // GET, POST, PUT, DELETE /posts and /posts/{id}
      const post = await call('POST', '/api/posts', {
        payload: { title: 'Diwali hours', body: 'Open till 10' },
      });
      expect(post.statusCode).toBe(201);
      const postId = post.json().data.id as number;
      expect((await call('GET', '/api/posts')).json().data.map((p: { id: number }) => p.id)).toContain(
        postId,
      );
      expect(
        (
          await call('PUT', `/api/posts/${postId}`, { payload: { title: 'Diwali hours', body: 'Till 11' } })
        ).json(),
      ).toMatchObject({ isSuccess: true, data: { body: 'Till 11' } });
      expect((await call('GET', `/api/posts/${postId}`)).json().data.body).toBe('Till 11');
      expect((await call('DELETE', `/api/posts/${postId}`)).statusCode).toBe(200);
      expect((await call('GET', `/api/posts/${postId}`)).statusCode).toBe(404);
    });
  });
}

describe('the health check', () => {
  it('answers 503 in the envelope when the database does not answer', async () => {
    const t = await makeTestApp('sqlite');
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      await t.db.destroy();
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        isSuccess: false,
        data: null,
        sys_message: 'The database is not answering.',
      });
    } finally {
      await t.app.close();
    }
  });
});
