import type { FastifyInstance } from 'fastify';

/** The order endpoints. Being built: see the open issue for this feature. */
export default async function orderRoutes(_app: FastifyInstance): Promise<void> {}
