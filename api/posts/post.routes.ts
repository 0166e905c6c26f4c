/**
 * The spec's generic `/posts` CRUD: public reads, admin writes (see
 * `domain/posts.contract.ts` for why). Bodies are plain text, stored as
 * sent; clients show them as text, never as HTML.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../domain/envelope.js';
import { postsApi } from '../../domain/posts.contract.js';
import { notFound } from '../http/errors.js';
import { given, route } from '../http/route.js';
import { createPost, deletePost, findPost, listPosts, updatePost } from './post.repository.js';

const NOT_FOUND = 'Post not found.';

export default async function postRoutes(app: FastifyInstance): Promise<void> {
  route(app, postsApi.list, async () => ok(await listPosts(app.db)));

  route(app, postsApi.get, async (ctx) => {
    const post = await findPost(app.db, given(ctx.params).id);
    if (!post) throw notFound(NOT_FOUND);
    return ok(post);
  });

  route(app, postsApi.create, async (ctx) => {
    const body = given(ctx.body);
    const post = await createPost(app.db, body);
    ctx.reply.code(201);
    return ok(post, 'Post published.');
  });

  route(app, postsApi.update, async (ctx) => {
    const body = given(ctx.body);
    const post = await updatePost(app.db, given(ctx.params).id, body);
    if (!post) throw notFound(NOT_FOUND);
    return ok(post, 'Post updated.');
  });

  route(app, postsApi.remove, async (ctx) => {
    const { id } = given(ctx.params);
    if (!(await deletePost(app.db, id))) throw notFound(NOT_FOUND);
    return ok({ id }, 'Post deleted.');
  });
}
