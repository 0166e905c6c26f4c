import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../domain/envelope.js';
import { giftsApi } from '../../domain/gifts.contract.js';
import { giftMessages, PHOTO_MAX_BYTES } from '../../domain/gifts.js';
import { isAdmin } from '../../domain/roles.js';
import { badRequest, HttpError, notFound, tooMany } from '../http/errors.js';
import { downloadRoute, given, route } from '../http/route.js';
import { readIdempotencyKey } from '../orders/idempotency.js';
import type { RateRule } from '../ratelimit/ratelimit.js';
import rateLimitPlugin from '../ratelimit/ratelimit.plugin.js';
import { deleteRecipient, listRecipients, photoByKey, photoBytes, saveRecipient } from './gift.repository.js';
import { checkPhotoRoom, keepCakePhoto } from './gift.service.js';
import { packingSlip } from './packing-slip.js';

/**
 * Each new photo is decoded, re-encoded and kept in the database: a shopper picks a few, a
 * script would fill the disk. Replays of a key are not counted (they make nothing).
 */
export const PHOTO_UPLOAD_RULE: RateRule = { limit: 30, windowMs: 60 * 60 * 1000 };

/**
 * Saves of a recipient (new or already kept) per account: a shopper saves a few, a script would
 * fill the list to its cap and keep it busy.
 */
export const RECIPIENT_SAVE_RULE: RateRule = { limit: 30, windowMs: 60 * 60 * 1000 };

/** Gifts: cake photos, saved recipients, the packing slip. See README.md. */
export default async function giftRoutes(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('rateLimiter')) await app.register(rateLimitPlugin);
  // This plugin's own multipart parser, sized for one phone photo.
  await app.register(multipart, {
    limits: { fileSize: PHOTO_MAX_BYTES, files: 1, fields: 2, fieldSize: 1024, parts: 3 },
  });

  route(app, giftsApi.uploadPhoto, async ({ request, reply }) => {
    const userId = request.user.id;
    const key = readIdempotencyKey(request);
    const answer = (p: { id: string; width: number; height: number }) =>
      ok({ photoID: p.id, width: p.width, height: p.height }, 'Photo added.');
    // A retry after a lost answer: the photo made the first time, with no second row or re-encoding.
    const known = key ? await photoByKey(app.db, userId, key) : null;
    if (known) {
      reply.code(201).header('idempotent-replayed', 'true');
      return answer(known);
    }
    if (!request.isMultipart()) throw new HttpError(415, giftMessages.photoField);
    const allowed = await app.rateLimiter.hit(`cake-photo:user:${userId}`, PHOTO_UPLOAD_RULE);
    if (!allowed.allowed) throw tooMany(giftMessages.photoTooMany, allowed.retryAfterMs / 1000);
    await checkPhotoRoom(app.db, userId);
    let buffer: Buffer | null = null;
    try {
      for await (const part of request.parts()) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== 'photo') {
          await part.toBuffer();
          throw badRequest(giftMessages.photoField);
        }
        buffer = await part.toBuffer();
      }
    } catch (err) {
      if (err instanceof HttpError || (err as { statusCode?: number }).statusCode) throw err;
      throw badRequest('The form data could not be read: it is not well-formed multipart/form-data.');
    }
    if (!buffer?.length) throw badRequest(giftMessages.photoField);
    const { photo, replayed } = await keepCakePhoto(app.db, userId, key, buffer);
    reply.code(201);
    if (replayed) reply.header('idempotent-replayed', 'true');
    return answer(photo);
  });

  downloadRoute(app, giftsApi.photo, async ({ params, query, request, reply }) => {
    const { photoID } = given(params);
    const { size } = given(query);
    const bytes = await photoBytes(app.db, photoID.toLowerCase(), size, {
      userId: request.user.id,
      anyOwner: isAdmin(request.user.role),
    });
    // Another shopper's photo is a 404, like a missing one: its id tells them nothing.
    if (!bytes) throw notFound(giftMessages.photoNotFound);
    reply.header('x-content-type-options', 'nosniff');
    return {
      stream: Readable.from([bytes]),
      size: bytes.length,
      filename: `cake-photo-${photoID}${size === 'full' ? '' : '-preview'}.webp`,
    };
  });

  route(app, giftsApi.myRecipients, async ({ request }) => ok(await listRecipients(app.db, request.user.id)));

  route(app, giftsApi.addRecipient, async ({ body, request, reply }) => {
    const userId = request.user.id;
    // Every save counts, one already kept too: the cap below refuses only new ones.
    const allowed = await app.rateLimiter.hit(`recipient-save:user:${userId}`, RECIPIENT_SAVE_RULE);
    if (!allowed.allowed) throw tooMany(giftMessages.recipientsTooMany, allowed.retryAfterMs / 1000);
    const saved = await saveRecipient(app.db, userId, given(body));
    if (!saved) throw new HttpError(422, giftMessages.recipientsFull);
    reply.code(201);
    return ok(saved, 'Recipient saved.');
  });

  route(app, giftsApi.deleteRecipient, async ({ params, request }) => {
    const { id } = given(params);
    if (!(await deleteRecipient(app.db, request.user.id, id))) throw notFound(giftMessages.recipientNotFound);
    return ok({ id }, 'Recipient removed.');
  });

  route(app, giftsApi.packingSlip, async ({ params }) => {
    const { id } = given(params);
    const slip = await packingSlip(app.db, id);
    if (!slip) throw notFound('No such order.');
    return ok(slip);
  });
}
