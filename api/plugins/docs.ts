import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { catalogueApi } from '../../domain/catalogue.contract.js';
import { LIMITS } from '../../domain/catalogue.js';
import { API_BASE } from '../../domain/contract.js';
import { giftsApi } from '../../domain/gifts.contract.js';
import { PHOTO_MAX_BYTES } from '../../domain/gifts.js';
import { OCCASIONS } from '../../domain/occasions.js';
import { fastifyPath } from '../http/route.js';

/**
 * The multipart form of `POST /AddProductForDash`, for the description only:
 * the contract cannot declare a multipart body (its fields are checked with
 * `AddProductFieldsSchema` in the handler), so without this the docs would
 * show the route with no body at all. Field names are the spec's.
 */
const ADD_PRODUCT_FORM = {
  type: 'object',
  required: ['CategoryID', 'Title', 'Description', 'LabelHeading', 'LabelDescription', 'Price', 'images'],
  properties: {
    CategoryID: {
      type: 'array',
      items: { type: 'integer', minimum: 1 },
      description: 'Repeated once per chosen category',
    },
    Title: { type: 'string', maxLength: LIMITS.title },
    Description: { type: 'string', description: 'HTML, sanitized on save' },
    LabelHeading: { type: 'string', maxLength: LIMITS.label },
    LabelDescription: { type: 'string', maxLength: LIMITS.label },
    Price: { type: 'integer', minimum: 0, description: 'Whole rupees' },
    SizeOrWeight: { type: 'string', maxLength: LIMITS.sizeOrWeight },
    images: {
      type: 'array',
      items: { type: 'string', format: 'binary' },
      maxItems: LIMITS.imagesPerProduct,
      description: `JPEG, PNG, WebP, AVIF, GIF or TIFF, at most ${LIMITS.imageBytes / 1024 / 1024} MB each`,
    },
    variationsJson: {
      type: 'string',
      description: 'JSON array of {VariationName, VariationType, Price}',
    },
    takesMessage: {
      type: 'string',
      enum: ['true', 'false'],
      description: 'The product takes a message on the cake; default false',
    },
    photoCake: {
      type: 'string',
      enum: ['true', 'false'],
      description: "A photo cake: needs a photo and a day's notice; default false",
    },
    Occasion: {
      type: 'array',
      items: { type: 'string', enum: [...OCCASIONS] },
      description: 'Repeated once per occasion the product is for (as CategoryID); none by default',
    },
  },
} as const;

const id = { type: 'integer', minimum: 1 } as const;

/**
 * Where the schema derived from the contract says less than the spec: the
 * contract's schemas accept either case of a key's first letter and give a
 * missing id its own message (so the derived JSON Schema shows a lower-case,
 * optional field); the description shows the spec's names, required.
 */
const SPEC_SHAPES: Record<string, Record<string, unknown>> = {
  [`POST ${fastifyPath(giftsApi.uploadPhoto.path)}`]: {
    consumes: ['multipart/form-data'],
    body: {
      type: 'object',
      required: ['photo'],
      properties: {
        photo: {
          type: 'string',
          format: 'binary',
          description: `JPEG, PNG or WebP, at most ${PHOTO_MAX_BYTES / 1024 / 1024} MB`,
        },
      },
    },
  },
  [`POST ${fastifyPath(catalogueApi.addProduct.path)}`]: {
    consumes: ['multipart/form-data'],
    body: ADD_PRODUCT_FORM,
  },
  [`POST ${fastifyPath(catalogueApi.addCategory.path)}`]: {
    body: {
      type: 'object',
      required: ['CategoryName'],
      properties: { CategoryName: { type: 'string', minLength: 1, maxLength: LIMITS.categoryName } },
    },
  },
  [`DELETE ${fastifyPath(catalogueApi.deleteCategory.path)}`]: {
    querystring: { type: 'object', required: ['categoryID'], properties: { categoryID: id } },
  },
  [`DELETE ${fastifyPath(catalogueApi.deleteProduct.path)}`]: {
    querystring: { type: 'object', required: ['productID'], properties: { productID: id } },
  },
};

/**
 * The OpenAPI description of every route, generated from the route schemas
 * (which `http/route.ts` derives from the valibot contract), served at `/api/docs`.
 * `tests/api/docs.test.ts` checks it against Fastify's own route table.
 */
export default fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        // 3.1: its schemas are JSON Schema 2020-12, which the contract's schemas are written as.
        openapi: '3.1.0',
        // Where the description is served from when no public address is set: relative, so
        // tools resolve it against the address they read it from.
        servers: [{ url: app.config.publicUrl ?? '/' }],
        info: {
          title: 'Storefront API',
          description:
            'The endpoints of the storefront spec (section 7) and the offline sync feed. Every answer is `{ isSuccess, data, sys_message }`.',
          version: '1.0.0',
          license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      },
      transform: ({ schema, url, route }) => {
        const methods = [route.method].flat();
        const shape = methods.map((m) => SPEC_SHAPES[`${m} ${url}`]).find(Boolean);
        return { schema: shape ? { ...schema, ...shape } : schema, url };
      },
    });
    app.get(`${API_BASE}/docs`, { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'docs' },
);
