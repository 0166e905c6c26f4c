import type { FastifyInstance } from 'fastify';

/** The payment endpoints. Being built: see the open issue for this feature. */
export default async function paymentRoutes(_app: FastifyInstance): Promise<void> {}
