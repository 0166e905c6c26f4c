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
      {
        schema: {
          summary: 'Health check',
          tags: ['ops'],
          operationId: 'ops.health',
          security: [],
          response: {
            200: {
              description: 'The database answers',
              type: 'object',
              required: ['isSuccess', 'data', 'sys_message'],
              properties: {
                isSuccess: { type: 'boolean', const: true },
                data: {
                  type: 'object',
                  required: ['status', 'database'],
                  properties: {
                    status: { type: 'string', const: 'ok' },
                    database: { type: 'string', enum: ['sqlite', 'postgres'] },
                  },
                },
                sys_message: { type: 'string' },
              },
            },
            503: {
              description: 'The database does not answer',
              type: 'object',
              required: ['isSuccess', 'data', 'sys_message'],
              properties: {
                isSuccess: { type: 'boolean', const: false },
                data: { type: 'null' },
                sys_message: { type: 'string' },
              },
            },
          },
        },
      },
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
