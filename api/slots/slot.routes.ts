import type { FastifyInstance } from 'fastify';
import { ok } from '../../domain/envelope.js';
import { indiaClock } from '../../domain/india-time.js';
import { slotMessages } from '../../domain/slot-messages.js';
import { slotsApi } from '../../domain/slots.contract.js';
import { conflict, notFound } from '../http/errors.js';
import { given, route } from '../http/route.js';
import {
  bumpSlotsVersion,
  deleteClosure,
  findSlot,
  insertSlot,
  listClosures,
  listSlots,
  setRetired,
  updateSlot,
  upsertClosure,
} from './slot.repository.js';
import { seedDemoSlots } from './slot.seed.js';
import { slotsForDate } from './slot.service.js';

/**
 * The slot endpoints (see README.md). Each admin write runs in one
 * transaction with a bump of the catalogue's version, stamped as the slots'
 * own (`bumpSlotsVersion`): the delta feed carries the slots and closed dates
 * to a device that has not seen that version, and a device learns of a change
 * the way it learns of a new price.
 */
export default async function slotRoutes(app: FastifyInstance): Promise<void> {
  const now = () => new Date();

  if (app.config.seedDemo) {
    app.addHook('onReady', async () => {
      const added = await seedDemoSlots(app.db, app.dialect);
      if (added) app.log.info(`demo delivery slots: ${added}`);
    });
  }

  route(app, slotsApi.forDate, async (ctx) => {
    const { date } = given(ctx.query);
    // What is left changes with every order: never kept by a cache.
    ctx.reply.header('cache-control', 'no-store');
    return ok(await slotsForDate(app.db, date, now()));
  });

  route(app, slotsApi.adminList, async () => {
    const [slots, closedDates] = await Promise.all([
      listSlots(app.db, { retired: true }),
      listClosures(app.db, indiaClock(now()).date),
    ]);
    return ok({ slots, closedDates });
  });

  route(app, slotsApi.add, async (ctx) => {
    const input = given(ctx.body);
    const slot = await app.db.transaction().execute(async (trx) => {
      await bumpSlotsVersion(trx);
      return insertSlot(trx, input, Date.now());
    });
    ctx.reply.code(201);
    return ok(slot, slotMessages.adminAdded);
  });

  route(app, slotsApi.edit, async (ctx) => {
    const { id } = given(ctx.params);
    const input = given(ctx.body);
    const slot = await app.db.transaction().execute(async (trx) => {
      await bumpSlotsVersion(trx);
      return updateSlot(trx, id, input, Date.now());
    });
    if (!slot) throw notFound(slotMessages.adminSlotNotFound(id));
    return ok(slot, slotMessages.adminSaved);
  });

  route(app, slotsApi.retire, async (ctx) => {
    const { id } = given(ctx.params);
    const slot = await app.db.transaction().execute(async (trx) => {
      await bumpSlotsVersion(trx);
      const found = await findSlot(trx, id);
      if (!found) throw notFound(slotMessages.adminSlotNotFound(id));
      if (found.isDefault) throw conflict(slotMessages.adminDefaultNotRetired);
      const t = Date.now();
      return setRetired(trx, id, t, t);
    });
    if (!slot) throw notFound(slotMessages.adminSlotNotFound(id));
    return ok(slot, slotMessages.adminRetired);
  });

  route(app, slotsApi.restore, async (ctx) => {
    const { id } = given(ctx.params);
    const slot = await app.db.transaction().execute(async (trx) => {
      await bumpSlotsVersion(trx);
      return setRetired(trx, id, null, Date.now());
    });
    if (!slot) throw notFound(slotMessages.adminSlotNotFound(id));
    return ok(slot, slotMessages.adminRestored);
  });

  route(app, slotsApi.closeDate, async (ctx) => {
    const { date } = given(ctx.params);
    const { message } = given(ctx.body);
    await app.db.transaction().execute(async (trx) => {
      await bumpSlotsVersion(trx);
      await upsertClosure(trx, date, message, Date.now());
    });
    return ok({ date, message }, slotMessages.adminClosed(date));
  });

  route(app, slotsApi.reopenDate, async (ctx) => {
    const { date } = given(ctx.params);
    const message = await app.db.transaction().execute(async (trx) => {
      await bumpSlotsVersion(trx);
      const closure = (await listClosures(trx, date)).find((c) => c.date === date);
      if (!closure || !(await deleteClosure(trx, date)))
        throw notFound(slotMessages.adminClosureNotFound(date));
      return closure.message;
    });
    return ok({ date, message }, slotMessages.adminReopened(date));
  });
}
