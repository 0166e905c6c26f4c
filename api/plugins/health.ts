import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { API_BASE } from '../../domain/contract.js';
import { fail, ok } from '../../domain/envelope.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * `draining` is set when the process has been asked to stop (SIGTERM, api/server.ts): it
     * finishes what it has started, answers anything new with a 503 that a load balancer or
     * proxy retries elsewhere, and reports itself not ready.
     */
    lifecycle: { draining: boolean };
  }
}

export const DRAINING_MESSAGE = 'This server is shutting down; please try again.';

const envelope = (success: boolean, data: Record<string, unknown>) => ({
  type: 'object',
  required: ['isSuccess', 'data', 'sys_message'],
  properties: {
    isSuccess: { type: 'boolean', const: success },
    data: success ? { type: 'object', ...data } : { type: 'null' },
    sys_message: { type: 'string' },
  },
});

const status = {
  required: ['status', 'database'],
  properties: {
    status: { type: 'string', const: 'ok' },
    database: { type: 'string', enum: ['sqlite', 'postgres'] },
  },
};

/**
 * What a load balancer asks (README "Running several processes"):
 * - `GET /api/health`, liveness: 200 while the process runs and answers, whatever the database
 *   does, so a database outage does not get every process restarted;
 * - `GET /api/ready`, readiness: 200 when the database answers a query and the process is not
 *   shutting down; 503 otherwise, so traffic goes to the other processes.
 */
export default fp(
  async (app: FastifyInstance) => {
    app.decorate('lifecycle', { draining: false });
    app.addHook('preClose', async () => {
      app.lifecycle.draining = true;
    });

    // Anything that arrives after the stop began (on a kept-alive connection) is refused with a
    // retryable 503 and the connection closed: the order it carries goes to another process, with
    // the same Idempotency-Key, and is placed once. What had already begun is finished.
    app.addHook('onRequest', async (_request, reply) => {
      if (!app.lifecycle.draining) return;
      return reply
        .code(503)
        .header('connection', 'close')
        .header('retry-after', '1')
        .send(fail(DRAINING_MESSAGE));
    });

    // What was begun before the stop is answered, and its connection then closed rather than
    // kept alive: a client's pool (a proxy's, Node's fetch) would hold it open for the whole
    // keep-alive timeout, and the process could not exit before its grace period ran out. The
    // header tells the client not to send anything more on it; ending the socket covers an
    // answer whose headers were already written when the stop came. Connections idle when the
    // stop comes are closed at once (`closeIdleConnections`, api/server.ts).
    app.addHook('onSend', async (_request, reply, payload) => {
      if (app.lifecycle.draining && !reply.raw.headersSent) reply.header('connection', 'close');
      return payload;
    });
    app.addHook('onResponse', async (request) => {
      const socket = request.raw.socket;
      if (app.lifecycle.draining && socket?.writable) socket.end();
    });

    app.get(
      `${API_BASE}/health`,
      {
        schema: {
          summary: 'Liveness: the process runs and answers',
          tags: ['ops'],
          operationId: 'ops.health',
          security: [],
          response: {
            200: { description: 'The process answers', ...envelope(true, status) },
            503: { description: 'The process is shutting down', ...envelope(false, {}) },
          },
        },
      },
      async () => ok({ status: 'ok', database: app.dialect }),
    );

    app.get(
      `${API_BASE}/ready`,
      {
        schema: {
          summary: 'Readiness: the database answers and the process takes new requests',
          tags: ['ops'],
          operationId: 'ops.ready',
          security: [],
          response: {
            200: { description: 'Ready for traffic', ...envelope(true, status) },
            503: {
              description: 'The database does not answer, or the process is shutting down',
              ...envelope(false, {}),
            },
          },
        },
      },
      async (_request, reply) => {
        try {
          await sql`select 1`.execute(app.db);
          return ok({ status: 'ok', database: app.dialect });
        } catch (err) {
          app.log.error({ err }, 'readiness: the database did not answer');
          return reply.code(503).send(fail('The database is not answering.'));
        }
      },
    );
  },
  { name: 'health', dependencies: ['database'] },
);
