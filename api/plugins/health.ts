import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { API_BASE } from '../../domain/contract.js';
import { fail, ok } from '../../domain/envelope.js';

/** `GET /api/health`: 200 when the database answers, 503 when it does not (for a load balancer). */
export default fp(
  async (app: FastifyInstance) => {
    app.get(
      `${API_BASE}/health`,
      { schema: { summary: 'Health check', tags: ['ops'] } },
      async (_request, reply) => {
        try {
          await sql`select 1`.execute(app.db);
          return ok({ status: 'ok', database: app.dialect });
        } catch (err) {
          app.log.error({ err }, 'health check: database did not answer');
          return reply.code(503).send(fail('The database is not answering.'));
        }
      },
    );
  },
  { name: 'health', dependencies: ['database'] },
);
