/**
 * The error policy at the server's edge: every failure answers the spec's
 * envelope with a truthful status. Messages of 4xx pass through (made human
 * where Fastify's own are technical); 5xx are logged with the request and
 * masked, so no stack trace or SQL ever reaches a client.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fail } from '../../domain/envelope.js';
import { HttpError } from '../http/errors.js';

const FASTIFY_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'The request body is not valid JSON.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'The request body is empty.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'The request is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'This content type is not accepted here.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'The request body does not match its length.'],
  FST_REQ_FILE_TOO_LARGE: [413, 'An uploaded file is too large.'],
  FST_FILES_LIMIT: [413, 'Too many files were uploaded.'],
  FST_FIELDS_LIMIT: [413, 'Too many form fields were sent.'],
  FST_PARTS_LIMIT: [413, 'Too many form parts were sent.'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [400, 'This request must be sent as multipart/form-data.'],
  FST_ERR_VALIDATION: [400, 'The request is not valid.'],
};

export default fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
      if (error instanceof HttpError) {
        // A 5xx of ours (a payment provider down or refusing) is for the shop to look into:
        // the log gets its cause, the shopper only the human message.
        if (error.statusCode >= 500) {
          request.log.error({ url: request.url, method: request.method, cause: error.cause }, error.message);
        }
        reply.headers(error.headers);
        return reply.code(error.statusCode).send(fail(error.message, error.data));
      }
      const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
      if (known) return reply.code(known[0]).send(fail(known[1]));
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        return reply.code(status).send(fail(error.message || 'The request was not accepted.'));
      }
      request.log.error({ err: error, url: request.url, method: request.method }, 'request failed');
      return reply.code(500).send(fail('Something went wrong. Please try again.'));
    });
  },
  { name: 'errors' },
);
