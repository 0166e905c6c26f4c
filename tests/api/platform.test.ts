import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../api/config.js';
import { makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

describe('settings', () => {
  it('trusts no proxy unless told, so nobody picks their own address', () => {
    const env = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/storefront-test-data' };
    expect(loadConfig(env).trustProxy).toBe(false);
    expect(loadConfig({ ...env, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...env, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe(
      '10.0.0.0/8, 127.0.0.1',
    );
  });

  it('names every bad setting at once', () => {
    try {
      loadConfig({
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        JWT_SECRET: 'short',
        ADMIN_EMAIL: 'a@b.co',
        TRUST_PROXY: 'everyone',
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const text = (err as ConfigError).message;
      expect(text).toContain('PORT');
      expect(text).toContain('DATABASE_URL');
      expect(text).toContain('JWT_SECRET');
      expect(text).toContain('ADMIN_PASSWORD');
      expect(text).toContain('TRUST_PROXY');
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`platform on ${dialect}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await makeTestApp(dialect);
    });
    afterAll(async () => t.close());

    it('answers the health check from the database', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        isSuccess: true,
        data: { status: 'ok', database: dialect },
        sys_message: 'Success',
      });
    });

    it('answers an unknown API path with the envelope and 404', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/NoSuchThing?x=1' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ isSuccess: false, data: null });
      expect(res.json().sys_message).toContain('/api/NoSuchThing');
    });

    it('describes the API at /api/docs', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
      expect(res.statusCode).toBe(200);
      expect(res.json().openapi).toMatch(/^3\./);
    });
  });
}

describe('the PWA beside the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    const webDir = mkdtempSync(path.join(tmpdir(), 'storefront-web-'));
    // The server writes each page's head into the shell, so the shell has one, as the built one does.
    writeFileSync(
      path.join(webDir, 'index.html'),
      '<!doctype html><html><head><title>shell</title></head><body><div id="shell"></div></body></html>',
    );
    t = await makeTestApp('sqlite', { webDir });
  });
  afterAll(async () => t.close());

  it('answers page routes with the shell, always revalidated so a new build reaches the shopper', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/cart' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="shell"></div>');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('never answers a missing asset or an API path with the shell', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    const api = await t.app.inject({ method: 'GET', url: '/api/products-details/12' });
    expect(api.statusCode).toBe(404);
    expect(api.json().isSuccess).toBe(false);
  });
});

for (const dialect of DIALECTS) {
  describe(`inputs every endpoint refuses alike on ${dialect}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await makeTestApp(dialect);
    });
    afterAll(async () => t.close());

    it('answers a NUL inside any text with 400 (PostgreSQL cannot store one)', async () => {
      for (const [url, payload] of [
        [
          '/api/CreateAccount',
          {
            name: 'a\u0000b',
            email: 'x@example.com',
            password: 'Aa1!aaaa',
            confirmPassword: 'Aa1!aaaa',
            phone: '9876543210',
          },
        ],
        ['/api/VerifyCoupon', { code: 'A\u0000B' }],
        ['/api/LoginCustomer', { email: 'x@example.com', password: 'p\u0000' }],
      ] as const) {
        const res = await t.app.inject({ method: 'POST', url, payload });
        expect(res.statusCode, url).toBeLessThan(500);
        expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(res.json().isSuccess, url).toBe(false);
      }
      const search = await t.app.inject({ method: 'GET', url: '/api/search?q=%00cake' });
      expect(search.statusCode).toBe(400);
    });

    it('answers a badly encoded address with the envelope', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/posts/%' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ isSuccess: false, data: null, sys_message: 'The address is not valid.' });
    });
  });
}
