/** Row types of the posts. They never leave the repository. */
import type { Generated } from 'kysely';

export interface PostsTable {
  id: Generated<number>;
  title: string;
  body: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface PostTables {
  posts: PostsTable;
}
