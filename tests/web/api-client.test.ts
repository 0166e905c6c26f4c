// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueApi } from '../../domain/catalogue.contract.js';
import { ApiError, call, createClient, fillPath } from '../../web/api/client.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';

/**
 * The browser's API client against the real server (SQLite in memory,
 * listening on a port of H5's range): the client only builds requests from
 * the contract, so the database dialect adds nothing here.
 */
const PORT = 4326;
let t: TestApp;
let http: ReturnType<typeof createClient>;

beforeAll(async () => {
  t = await makeTestApp('sqlite');
  await t.app.listen({ port: PORT, host: '127.0.0.1' });
  http = createClient(`http://127.0.0.1:${PORT}/api`);
});
afterAll(async () => {
  await t.close();
});

describe('web/api client', () => {
  it('fills path parameters from the contract path', () => {
    expect(fillPath('/ABCGetProducts/{id}', { id: 5 })).toBe('ABCGetProducts/5');
    expect(fillPath('/x/{name}', { name: 'a b/c' })).toBe('x/a%20b%2Fc');
    expect(() => fillPath('/ABCGetProducts/{id}', {})).toThrow(/Missing path parameter id/);
  });

  it('reads an envelope, and sends the admin token it is given', async () => {
    const admin = await createUserWithToken(t.app, { role: '1' });
    const added = await call(
      catalogueApi.addCategory,
      { body: { CategoryName: 'Teddy Bears' }, token: admin.token },
      http,
    );
    expect(added.isSuccess).toBe(true);
    const list = await call(catalogueApi.getCategories, { token: null }, http);
    expect(list.data?.map((c) => c.categoryName)).toContain('Teddy Bears');
  });

  it('throws ApiError with the server message and the truthful status', async () => {
    const missing = await call(catalogueApi.getProduct, { params: { id: '987654' } }, http).catch((e) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing.status).toBe(404);
    expect(missing.envelope?.isSuccess).toBe(false);
    expect(missing.message).toBe(missing.envelope?.sys_message);

    const anonymous = await call(
      catalogueApi.addCategory,
      { body: { CategoryName: 'X' }, token: null },
      http,
    ).catch((e) => e);
    expect(anonymous.status).toBe(401);

    const shopper = await createUserWithToken(t.app, { role: '0' });
    const forbidden = await call(
      catalogueApi.addCategory,
      { body: { CategoryName: 'X' }, token: shopper.token },
      http,
    ).catch((e) => e);
    expect(forbidden.status).toBe(403);

    const admin = await createUserWithToken(t.app, { role: '1' });
    const bad = await call(
      catalogueApi.addCategory,
      { body: { CategoryName: '  ' }, token: admin.token },
      http,
    ).catch((e) => e);
    expect(bad.status).toBe(400);
    expect(bad.message).toBe('Please enter a category name.');
  });

  it('reports a network failure as status 0', async () => {
    const nowhere = createClient('http://127.0.0.1:4327/api');
    const err = await call(catalogueApi.getCategories, {}, nowhere).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.offline).toBe(true);
  });
});
