import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '../../domain/posts.contract.js';
import { createUserWithToken, makeTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

/** The spec's generic `/posts` CRUD: public reads, admin writes, bad input. */
type Auth = { authorization: string };

for (const dialect of DIALECTS) {
  describe(`posts on ${dialect}`, () => {
    let t: TestApp;
    let admin: Auth;
    let shopper: Auth;

    beforeAll(async () => {
      t = await makeTestApp(dialect);
      admin = (await createUserWithToken(t.app, { role: '1' })).auth;
      shopper = (await createUserWithToken(t.app, { role: '0' })).auth;
    });
    afterAll(async () => t.close());

    it('creates, reads, lists, replaces and deletes a post', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/posts' })).json()).toEqual({
        isSuccess: true,
        data: [],
        sys_message: 'Success',
      });
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/posts',
        headers: admin,
        payload: { title: '  Diwali hours ', body: 'Open till 11 PM <b>all week</b>' },
      });
      expect(created.statusCode).toBe(201);
      const post = created.json().data as Post;
      expect(post).toMatchObject({ title: 'Diwali hours', body: 'Open till 11 PM <b>all week</b>' });
      expect(post.id).toBeGreaterThan(0);
      expect(Date.parse(post.createdAt)).not.toBeNaN();

      const second = await t.app.inject({
        method: 'POST',
        url: '/api/posts',
        headers: admin,
        payload: { title: 'B' },
      });
      expect(second.json().data.body).toBe('');
      const list = (await t.app.inject({ method: 'GET', url: '/api/posts' })).json().data as Post[];
      expect(list.map((p) => p.title)).toEqual(['B', 'Diwali hours']);

      const one = await t.app.inject({ method: 'GET', url: `/api/posts/${post.id}` });
      expect(one.json().data).toEqual(post);

      const replaced = await t.app.inject({
        method: 'PUT',
        url: `/api/posts/${post.id}`,
        headers: admin,
        payload: { title: 'Diwali hours (updated)', body: 'Till midnight' },
      });
      expect(replaced.statusCode).toBe(200);
      expect(replaced.json().data).toMatchObject({
        id: post.id,
        title: 'Diwali hours (updated)',
        body: 'Till midnight',
      });

      const removed = await t.app.inject({ method: 'DELETE', url: `/api/posts/${post.id}`, headers: admin });
      expect(removed.json()).toEqual({
        isSuccess: true,
        data: { id: post.id },
        sys_message: 'Post deleted.',
      });
      expect((await t.app.inject({ method: 'GET', url: `/api/posts/${post.id}` })).statusCode).toBe(404);
      expect(
        (await t.app.inject({ method: 'DELETE', url: `/api/posts/${post.id}`, headers: admin })).statusCode,
      ).toBe(404);
      const put404 = await t.app.inject({
        method: 'PUT',
        url: `/api/posts/${post.id}`,
        headers: admin,
        payload: { title: 'x' },
      });
      expect(put404.statusCode).toBe(404);
      expect(put404.json()).toEqual({ isSuccess: false, data: null, sys_message: 'Post not found.' });
    });

    it('lets only an admin write (401 without a token, 403 for a shopper)', async () => {
      const writes = [
        { method: 'POST' as const, url: '/api/posts', payload: { title: 'x' } },
        { method: 'PUT' as const, url: '/api/posts/1', payload: { title: 'x' } },
        { method: 'DELETE' as const, url: '/api/posts/1' },
      ];
      for (const w of writes) {
        expect((await t.app.inject(w)).statusCode, w.method).toBe(401);
        expect((await t.app.inject({ ...w, headers: shopper })).statusCode, w.method).toBe(403);
      }
    });

    it('refuses bad ids and bodies with 400 and the envelope', async () => {
      const cases = [
        { method: 'GET' as const, url: '/api/posts/abc' },
        { method: 'GET' as const, url: '/api/posts/0' },
        { method: 'POST' as const, url: '/api/posts', payload: { title: '' } },
        { method: 'POST' as const, url: '/api/posts', payload: { body: 'no title' } },
        { method: 'POST' as const, url: '/api/posts', payload: { title: 'x'.repeat(201) } },
        { method: 'POST' as const, url: '/api/posts', payload: { title: 'x', body: 5 } },
        { method: 'PUT' as const, url: '/api/posts/x', payload: { title: 'x' } },
      ];
      for (const c of cases) {
        const res = await t.app.inject({ ...c, headers: admin });
        expect(res.statusCode, `${c.method} ${c.url} ${JSON.stringify(c.payload)}`).toBe(400);
        expect(res.json()).toMatchObject({ isSuccess: false });
        expect(typeof res.json().sys_message).toBe('string');
      }
      expect((await t.app.inject({ method: 'GET', url: '/api/posts/99999' })).statusCode).toBe(404);
    });
  });
}
