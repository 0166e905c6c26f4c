import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import openapiTS from 'openapi-typescript';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastifyPath } from '../../api/http/route.js';
import { allEndpoints } from '../../domain/api.contract.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

const run = promisify(execFile);

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

type Operation = {
  summary?: string;
  operationId?: string;
  security?: unknown;
  responses?: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};
type OpenApi = {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
};

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

  /**
   * The contract's endpoints this app serves: all but the local test provider's payment, which
   * exists only with TEST_PAYMENTS (checked here, so no other endpoint can go missing unseen).
   */
  const servedEndpoints = () => {
    const served = new Set(api.map((r) => `${r.method} ${r.url}`));
    const [yes, no] = [
      allEndpoints().filter(({ endpoint: e }) => served.has(`${e.method} ${fastifyPath(e.path)}`)),
      allEndpoints().filter(({ endpoint: e }) => !served.has(`${e.method} ${fastifyPath(e.path)}`)),
    ];
    expect(no.map((e) => e.operationId)).toEqual(['payments.testPay']);
    return yes;
  };

  it('reads the route table (the parser is checked against routes that must be there)', () => {
    const keys = api.map((r) => `${r.method} ${r.url}`);
    for (const k of [
      'GET /api/ABCGetProducts',
      'GET /api/ABCGetProducts/:id',
      'GET /api/posts/:id',
      'DELETE /api/posts/:id',
      'POST /api/AddProductForDash',
      'GET /api/health',
      'GET /api/ready',
    ]) {
      expect(keys).toContain(k);
    }
    expect(api.length).toBeGreaterThan(30);
  });

  it('is OpenAPI 3.1 and lists every API route with its method and a summary', () => {
    expect(doc.openapi).toBe('3.1.0');
    // No PUBLIC_URL in the tests' settings: the server is the origin the description is read from.
    expect(doc.servers).toEqual([{ url: '/' }]);
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
        // Gifts (issue 26): the admin's product flags.
        'takesMessage',
        'photoCake',
        // Search (issue 49): the occasions, repeated as CategoryID.
        'Occasion',
      ].sort(),
    );
  });

  it('describes the cake photo upload as multipart with its one file field', () => {
    const body = (
      doc.paths['/api/cake-photos']?.post as unknown as
        | { requestBody?: { content: Record<string, { schema: { required: string[] } }> } }
        | undefined
    )?.requestBody;
    expect(body?.content['multipart/form-data']?.schema.required).toEqual(['photo']);
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

  it('marks every endpoint that needs a token with the bearer scheme, and every public one with none', () => {
    for (const { endpoint: e } of servedEndpoints()) {
      const op = doc.paths[openApiPath(fastifyPath(e.path))]?.[e.method.toLowerCase()];
      expect(op, `${e.method} ${e.path}`).toBeDefined();
      expect(op?.security, `${e.method} ${e.path}`).toEqual(e.access === 'public' ? [] : [{ bearer: [] }]);
    }
  });

  it("names every operation by its contract's name, with its success answer and its 4xx answers in the envelope", () => {
    const ids = new Set<string>();
    for (const { endpoint: e, operationId } of servedEndpoints()) {
      const where = `${e.method} ${e.path}`;
      const op = doc.paths[openApiPath(fastifyPath(e.path))]?.[e.method.toLowerCase()];
      expect(op?.operationId, where).toBe(operationId);
      ids.add(operationId);
      const codes = Object.keys(op?.responses ?? {});
      expect(codes, where).toContain(String(e.status ?? 200));
      expect(codes.filter((c) => c.startsWith('4')).length, where).toBeGreaterThan(0);
      for (const code of codes) {
        if (e.download && code === String(e.status ?? 200)) {
          // A download's success is the file, described as binary of its type.
          expect(op?.responses?.[code]?.content?.[e.download]?.schema, `${where} ${code}`).toEqual({
            type: 'string',
            format: 'binary',
          });
          continue;
        }
        const schema = op?.responses?.[code]?.content?.['application/json']?.schema;
        expect(schema?.required, `${where} ${code}`).toEqual(
          expect.arrayContaining(['isSuccess', 'data', 'sys_message']),
        );
      }
    }
    expect(ids.size).toBe(servedEndpoints().length);
    // The product as answered: the spec's fields, typed, and what we add.
    const list = doc.paths['/api/ABCGetProducts']?.get?.responses?.['200']?.content?.['application/json']
      ?.schema as {
      properties: { data: { items: { properties: Record<string, unknown>; required: string[] } } };
    };
    expect(list.properties.data.items.required).toEqual(
      expect.arrayContaining([
        'productID',
        'title',
        'imagePath',
        'categoryName',
        'labelHeading',
        'variations',
      ]),
    );
  });

  it('names PUBLIC_URL as its server when it is set', async () => {
    const other = await makeTestApp('sqlite', { publicUrl: 'https://shop.example.com' });
    try {
      const res = await other.app.inject({ method: 'GET', url: '/api/docs' });
      expect((res.json() as OpenApi).servers).toEqual([{ url: 'https://shop.example.com' }]);
    } finally {
      await other.close();
    }
  });

  it("passes Redocly's recommended lint with no error, and only the warnings the README names", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      // Exits non-zero when there are errors; the JSON report is on stdout either way.
      const out = await run(
        path.resolve('node_modules/.bin/redocly'),
        ['lint', file, '--extends=recommended', '--format=json'],
        { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
      ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
      const report = JSON.parse(out.stdout) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; severity: string; location: { pointer: string }[] }[];
      };
      const seen = report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}`);
      expect(report.totals.errors, seen.join('\n')).toBe(0);
      // The README's "API description" section says why each of these stays.
      expect(seen).toEqual([
        'warn operation-4xx-response #/paths/~1api~1health/get/responses',
        'warn operation-4xx-response #/paths/~1api~1ready/get/responses',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('gives openapi-typescript the types of a client that lists products and places an order', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-client-'));
    try {
      writeFileSync(path.join(dir, 'api.ts'), await openapiTS(doc as never));
      writeFileSync(path.join(dir, 'client.ts'), PARTNER_CLIENT);
      writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: 'es2022',
            module: 'nodenext',
            lib: ['es2022', 'dom'],
            types: [],
            skipLibCheck: false,
          },
          files: ['api.ts', 'client.ts'],
        }),
      );
      const out = await run(path.resolve('node_modules/.bin/tsc'), ['-p', dir]).catch(
        (err: { stdout?: string; stderr?: string }) => ({
          stdout: `${err.stdout}${err.stderr}`,
          failed: true,
        }),
      );
      expect(out.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

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

describe('the health and readiness checks', () => {
  it('stay live but not ready when the database does not answer, and refuse new work while draining', async () => {
    const t = await makeTestApp('sqlite');
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
      await t.db.destroy();
      const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        isSuccess: false,
        data: null,
        sys_message: 'The database is not answering.',
      });
      // Liveness does not ask the database: an outage must not get every process restarted.
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

      t.app.lifecycle.draining = true;
      for (const url of ['/api/ready', '/api/health', '/api/GetCategories']) {
        const draining = await t.app.inject({ method: 'GET', url });
        expect(draining.statusCode, url).toBe(503);
        expect(draining.headers.connection, url).toBe('close');
        expect(draining.headers['retry-after'], url).toBe('1');
        expect(draining.json(), url).toEqual({
          isSuccess: false,
          data: null,
          sys_message: 'This server is shutting down; please try again.',
        });
      }
    } finally {
      await t.app.close();
    }
  });
});

/**
 * A partner's client written against the generated types only. The `@ts-expect-error` lines
 * make the check two-sided: if an answer's fields were untyped (as before the contract had
 * response schemas), a wrong field name would compile and those lines would be errors.
 */
const PARTNER_CLIENT = `import type { paths } from './api.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Products = Json<paths['/api/ABCGetProducts']['get']['responses'][200]>;
type OrderBody = Json<NonNullable<paths['/api/place-order']['post']['requestBody']>>;
type Placed = Json<paths['/api/place-order']['post']['responses'][200]>;

export async function listProducts(base: string): Promise<{ id: number; title: string; rupees: number }[]> {
  const answer = (await (await fetch(base + '/api/ABCGetProducts')).json()) as Products;
  if (!answer.isSuccess) throw new Error(answer.sys_message);
  // @ts-expect-error the spec's name is productID
  answer.data.map((p) => p.productId);
  return answer.data.map((p) => ({ id: p.productID, title: p.title, rupees: p.price }));
}

export async function placeOrder(base: string, token: string, key: string, order: OrderBody): Promise<number> {
  const res = await fetch(base + '/api/place-order', {
    method: 'POST',
    headers: { authorization: 'Bearer ' + token, 'idempotency-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(order),
  });
  const answer = (await res.json()) as Placed;
  const total: number = answer.data.totalAmount;
  // @ts-expect-error totalAmount is a number
  const wrong: string = answer.data.totalAmount;
  return total > 0 && wrong !== '' ? answer.data.orderID : answer.data.orderID;
}
`;
