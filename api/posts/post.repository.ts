/** SQL of the posts; rows never leave this file. */
import type { Kysely } from 'kysely';
import type { Post, PostInput } from '../../domain/posts.contract.js';
import type { Database } from '../db/schema.js';

type Row = { id: number; title: string; body: string; created_at: number; updated_at: number };

function toPost(r: Row): Post {
  return {
    id: r.id,
    title: r.title,
    body: r.body,
    createdAt: new Date(Number(r.created_at)).toISOString(),
    updatedAt: new Date(Number(r.updated_at)).toISOString(),
  };
}

export async function listPosts(db: Kysely<Database>): Promise<Post[]> {
  const rows = await db
    .selectFrom('posts')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toPost);
}

export async function findPost(db: Kysely<Database>, id: number): Promise<Post | null> {
  const row = await db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toPost(row) : null;
}

export async function createPost(db: Kysely<Database>, input: PostInput): Promise<Post> {
  const now = Date.now();
  const row = await db
    .insertInto('posts')
    .values({ title: input.title, body: input.body, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toPost(row);
}

export async function updatePost(db: Kysely<Database>, id: number, input: PostInput): Promise<Post | null> {
  const row = await db
    .updateTable('posts')
    .set({ title: input.title, body: input.body, updated_at: Date.now() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toPost(row) : null;
}

export async function deletePost(db: Kysely<Database>, id: number): Promise<boolean> {
  const result = await db.deleteFrom('posts').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
