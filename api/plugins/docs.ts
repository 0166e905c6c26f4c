import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { API_BASE } from '../../domain/contract.js';

/**
 * The OpenAPI description of every route, generated from the route schemas
 * (which `http/route.ts` derives from the valibot contract), served at `/api/docs`.
 */
export default fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Storefront API',
          description:
            'The endpoints of the storefront spec (section 7) and the offline sync feed. Every answer is `{ isSuccess, data, sys_message }`.',
          version: '1.0.0',
        },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      },
    });
    app.get(`${API_BASE}/docs`, { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'docs' },
);
