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
