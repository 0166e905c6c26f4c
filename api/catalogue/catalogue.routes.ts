import type { FastifyInstance } from 'fastify';

/** The catalogue endpoints. Being built: see the open issue for this feature. */
export default async function catalogueRoutes(_app: FastifyInstance): Promise<void> {}
