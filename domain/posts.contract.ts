import * as v from 'valibot';
import { typedText } from './catalogue.js';
import { endpoint } from './contract.js';
import { IdSchema } from './validation.js';

/**
 * The spec's generic `/posts` CRUD ("purpose not shown"). We read it as short
 * notices the shop publishes: anyone may read them, only an admin writes them
 * (an open write endpoint on a shop's origin would be a spam and phishing hole).
 * A body is plain text: clients show it as text, never as HTML.
 */
export interface Post {
  id: number;
  title: string;
  body: string;
  createdAt: string;
  updatedAt: string;
}

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
  list: endpoint<Post[]>()({
    method: 'GET',
    path: '/posts',
    summary: 'Every post, newest first',
    tag,
    access: 'public',
  }),
  get: endpoint<Post>()({
    method: 'GET',
    path: '/posts/{id}',
    summary: 'One post',
    tag,
    access: 'public',
    params: PostIdParams,
  }),
  create: endpoint<Post>()({
    method: 'POST',
    path: '/posts',
    summary: 'Publish a post',
    tag,
    access: 'admin',
    body: PostBodySchema,
  }),
  update: endpoint<Post>()({
    method: 'PUT',
    path: '/posts/{id}',
    summary: 'Replace a post',
    tag,
    access: 'admin',
    params: PostIdParams,
    body: PostBodySchema,
  }),
  remove: endpoint<{ id: number }>()({
    method: 'DELETE',
    path: '/posts/{id}',
    summary: 'Delete a post',
    tag,
    access: 'admin',
    params: PostIdParams,
  }),
} as const;
