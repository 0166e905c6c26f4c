import type { FastifyInstance } from 'fastify';

/** The account endpoints. Being built: see the open issue for this feature. */
export default async function accountRoutes(_app: FastifyInstance): Promise<void> {}
