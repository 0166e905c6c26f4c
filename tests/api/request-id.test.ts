import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/**
 * Every answer names its request (`X-Request-Id`), and every log line of that request carries
 * the same id: a proxy's id is kept, so one request is followed across the load balancer and
 * whichever process served it (issue 18). A value that could forge or flood log lines is not kept.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

for (const dialect of DIALECTS) {
  describe(`request ids on ${dialect}`, () => {
    let t: TestApp;
    const logged: { reqId?: string; msg?: string }[] = [];
    beforeAll(async () => {
      t = await makeTestApp(
        dialect,
        {},
        { logger: { level: 'info', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } },
      );
    });
    afterAll(() => t.close());

    it("keeps the caller's id, on the answer and on the request's log lines", async () => {
      logged.length = 0;
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/GetCategories',
        headers: { 'x-request-id': 'lb-7f3a.42:edge_1' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-request-id']).toBe('lb-7f3a.42:edge_1');
      const lines = logged.filter((l) => l.reqId === 'lb-7f3a.42:edge_1');
      expect(lines.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    });

    it('makes one when there is none, different for each request, on errors and unknown paths too', async () => {
      const a = await t.app.inject({ method: 'GET', url: '/api/GetCategories' });
      const b = await t.app.inject({ method: 'GET', url: '/api/no-such-endpoint' });
      const c = await t.app.inject({
        method: 'POST',
        url: '/api/CreateAccount',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      });
      for (const res of [a, b, c]) expect(res.headers['x-request-id']).toMatch(UUID);
      expect(new Set([a, b, c].map((r) => r.headers['x-request-id'])).size).toBe(3);
      expect(b.statusCode).toBe(404);
      expect(c.statusCode).toBe(400);
    });

    it('does not keep an id that is not a short plain token', async () => {
      for (const bad of ['', 'a'.repeat(129), 'x y', 'id\\"}{"admin":true', '<script>', 'ünïcode']) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/GetCategories',
          headers: { 'x-request-id': bad },
        });
        expect(res.headers['x-request-id'], JSON.stringify(bad)).toMatch(UUID);
      }
    });
  });
}
