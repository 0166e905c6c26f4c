import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { adminApi } from '../../domain/admin.contract.js';
import { ImageOrderSchema } from '../../domain/admin-edits.js';
import { LIVE_FIRST_LOOK_MS } from '../../domain/admin-live.js';
import { adminMessages } from '../../domain/admin-messages.js';
import { LIMITS } from '../../domain/catalogue.js';
import { ok } from '../../domain/envelope.js';
import { messages } from '../../domain/messages.js';
import { parseWith } from '../../domain/validation.js';
import { loadProduct } from '../catalogue/catalogue.repository.js';
import { deleteProducts, renameCategory } from '../catalogue/catalogue.service.js';
import { badRequest, HttpError, notFound } from '../http/errors.js';
import { etagMatches, notModified } from '../http/etag.js';
import { given, route } from '../http/route.js';
import { changeOrderStatus } from '../orders/order.status.js';
import { cancelUnpaidOrders, saveProductImages } from './admin.service.js';
import { dashboard, newOrdersSince } from './admin-dashboard.repository.js';
import { orderDetail, orderPage, packingSlipPage, searchedAccount } from './admin-orders.repository.js';
import { productPage } from './admin-products.repository.js';
import { orderChanges } from './order-changes.repository.js';

/** A first visit's bell shows the orders of the last day. */
const FIRST_LOOK_MS = 24 * 60 * 60 * 1000;

/** The admin area's endpoints (see README.md). Every one is admin-only through the contract. */
export default async function adminRoutes(app: FastifyInstance): Promise<void> {
  // This plugin's own multipart parser (the catalogue's is encapsulated in its plugin).
  await app.register(multipart, {
    limits: {
      fileSize: LIMITS.imageBytes,
      files: LIMITS.imagesPerProduct,
      fields: 4,
      fieldSize: 16 * 1024,
      parts: 12,
    },
  });

  route(app, adminApi.dashboard, async () => ok(await dashboard(app.db, Date.now())));

  route(app, adminApi.products, async (ctx) => {
    const page = await productPage(app.db, given(ctx.query));
    return ok(page, page.total ? 'Success' : messages.noProductsFound);
  });

  route(app, adminApi.deleteProducts, async (ctx) => {
    const { productIDs } = given(ctx.body);
    const deleted = await app.db.transaction().execute((trx) => deleteProducts(trx, productIDs));
    return ok(
      { deleted },
      deleted.length === 1 ? messages.productDeleted : `${deleted.length} products deleted.`,
    );
  });

  route(app, adminApi.renameCategory, async (ctx) => {
    const { id } = given(ctx.params);
    const { categoryName } = given(ctx.body);
    const category = await app.db.transaction().execute((trx) => renameCategory(trx, id, categoryName));
    return ok(category, 'Category renamed.');
  });

  route(
    app,
    adminApi.productImages,
    async (ctx) => {
      const { id } = given(ctx.params);
      const { request } = ctx;
      if (!request.isMultipart()) throw badRequest('Send the images as multipart/form-data.');
      let orderJson = '';
      const files: Buffer[] = [];
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            const buffer = await part.toBuffer();
            if (part.fieldname !== 'images') throw badRequest(`Unexpected file field "${part.fieldname}".`);
            if (buffer.length) files.push(buffer);
          } else if (part.fieldname === 'order') {
            orderJson = String(part.value);
          }
        }
      } catch (err) {
        if (err instanceof HttpError || (err as { statusCode?: number }).statusCode) throw err;
        throw badRequest('The form data could not be read: it is not well-formed multipart/form-data.');
      }
      let raw: unknown;
      try {
        raw = JSON.parse(orderJson || 'null');
      } catch {
        throw badRequest('order is not valid JSON.', { field: 'order' });
      }
      const parsed = parseWith(ImageOrderSchema, raw);
      if (!parsed.ok) throw badRequest(parsed.message, { field: 'order' });
      const entries = parsed.value;
      for (const e of entries) {
        if ('file' in e && e.file >= files.length)
          throw badRequest(`No uploaded image number ${e.file + 1}.`, { field: 'order' });
      }
      await saveProductImages(app.db, app.media, id, entries, files);
      const product = await loadProduct(app.db, id);
      if (!product) throw notFound(messages.productNotFound);
      return ok(product, 'Images saved.');
    },
    { bodyDescription: 'multipart/form-data: order (JSON) and up to 6 "images" files of 5 MB each' },
  );

  route(app, adminApi.orders, async (ctx) => {
    const query = given(ctx.query);
    const page = await orderPage(app.db, query);
    const account = await searchedAccount(app.db, query.q);
    return ok({ ...page, account }, page.total ? 'Success' : messages.noOrdersFound);
  });

  route(app, adminApi.order, async (ctx) => {
    const { id } = given(ctx.params);
    const order = await orderDetail(app.db, id);
    if (!order) throw notFound(`Order ${id} was not found.`);
    return ok(order);
  });

  route(app, adminApi.packingSlips, async (ctx) => {
    const page = await packingSlipPage(app.db, given(ctx.query));
    return ok(page, page.total ? 'Success' : messages.noOrdersFound);
  });

  route(app, adminApi.moveOrder, async (ctx) => {
    const { id } = given(ctx.params);
    const { status, note } = given(ctx.body);
    const change = await changeOrderStatus(app.db, id, status, ctx.request.user, note, {
      refunds: app.refunds,
    });
    return ok({ orderID: id, status, change }, 'Order status updated.');
  });

  route(app, adminApi.cancelUnpaidOrders, async (ctx) => {
    const { userID, note } = given(ctx.body);
    const cancelled = await cancelUnpaidOrders(app.db, userID, ctx.request.user, note, app.refunds);
    return ok(
      { userID, cancelled: cancelled.length, orderIDs: cancelled },
      adminMessages.unpaidCancelled(cancelled.length),
    );
  });

  route(app, adminApi.notifications, async (ctx) => {
    const now = Date.now();
    const since = given(ctx.query).since ?? now - FIRST_LOOK_MS;
    return ok(await newOrdersSince(app.db, since, now));
  });

  route(app, adminApi.orderChanges, async ({ query, request, reply }) => {
    const now = Date.now();
    const answer = await orderChanges(
      app.db,
      request.user.id,
      given(query).since ?? now - LIVE_FIRST_LOOK_MS,
      now,
    );
    // Asked every few seconds by each open screen: the same changes (whatever the time) are a 304.
    const digest = createHash('sha256')
      .update(JSON.stringify([answer.changes, answer.more]))
      .digest('base64url')
      .slice(0, 22);
    const etag = `"c${digest}"`;
    reply.header('etag', etag);
    if (etagMatches(request.headers['if-none-match'], etag)) return notModified(reply);
    return ok(answer);
  });
}
