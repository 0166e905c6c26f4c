import type { FastifyInstance } from 'fastify';

/** The post endpoints. Being built: see the open issue for this feature. */
export default async function postRoutes(_app: FastifyInstance): Promise<void> {}
