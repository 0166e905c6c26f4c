/**
 * The spec's generic `/posts` CRUD ("purpose not shown"). We read it as short
 * notices the shop publishes: anyone may read them, only an admin writes them
 * (an open write endpoint on a shop's origin would be a spam and phishing hole).
 * A body is plain text: clients show it as text, never as HTML.
 */
import * as v from 'valibot';
import { typedText } from './catalogue.js';
import { endpoint } from './contract.js';
import { IdSchema } from './validation.js';

export const PostSchema = v.object({
  id: v.pipe(v.number(), v.integer()),
  title: v.string(),
  body: v.pipe(v.string(), v.description('Plain text: show it as text, never as HTML')),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  updatedAt: v.pipe(v.string(), v.isoTimestamp()),
});
export type Post = v.InferOutput<typeof PostSchema>;

export const POST_LIMITS = { title: 200, body: 20_000 } as const;

export const PostBodySchema = v.object({
  title: v.pipe(
    v.string('Title must be text.'),
    v.trim(),
    v.nonEmpty('Title is required.'),
    v.maxLength(POST_LIMITS.title, `Title must be at most ${POST_LIMITS.title} characters.`),
    typedText('Title'),
  ),
  body: v.optional(
    v.pipe(
      v.string('Body must be text.'),
      v.maxLength(POST_LIMITS.body, `Body must be at most ${POST_LIMITS.body} characters.`),
      typedText('Body'),
    ),
    '',
  ),
});
export type PostInput = v.InferOutput<typeof PostBodySchema>;

const PostIdParams = v.object({ id: IdSchema });
const tag = 'Posts';

export const postsApi = {
  list: endpoint({
    method: 'GET',
    path: '/posts',
    summary: 'Every post, newest first',
    tag,
    access: 'public',
    response: v.array(PostSchema),
  }),
  get: endpoint({
    method: 'GET',
    path: '/posts/{id}',
    summary: 'One post',
    tag,
    access: 'public',
    response: PostSchema,
    params: PostIdParams,
  }),
  create: endpoint({
    method: 'POST',
    path: '/posts',
    summary: 'Publish a post',
    tag,
    access: 'admin',
    response: PostSchema,
    status: 201,
    body: PostBodySchema,
  }),
  update: endpoint({
    method: 'PUT',
    path: '/posts/{id}',
    summary: 'Replace a post',
    tag,
    access: 'admin',
    response: PostSchema,
    params: PostIdParams,
    body: PostBodySchema,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/posts/{id}',
    summary: 'Delete a post',
    tag,
    access: 'admin',
    response: v.object({ id: v.pipe(v.number(), v.integer()) }),
    params: PostIdParams,
  }),
} as const;
