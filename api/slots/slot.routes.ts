import type { FastifyInstance } from 'fastify';
import { ok } from '../../domain/envelope.js';
import { indiaClock } from '../../domain/india-time.js';
import { slotMessages } from '../../domain/slot-messages.js';
import { slotsApi } from '../../domain/slots.contract.js';
import { given, route } from '../http/route.js';
import { listClosures, listSlots } from './slot.repository.js';
import { seedDemoSlots } from './slot.seed.js';
import {
  addSlot,
  closeDate,
  editSlot,
  reopenDate,
  restoreSlot,
  retireSlot,
  slotsForDate,
} from './slot.service.js';

/**
 * The slot endpoints (see README.md); the admin's writes and their version
 * bump are `slot.service.ts`'s.
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
    const slot = await addSlot(app.db, given(ctx.body));
    ctx.reply.code(201);
    return ok(slot, slotMessages.adminAdded);
  });

  route(app, slotsApi.edit, async (ctx) => {
    const { id } = given(ctx.params);
    return ok(await editSlot(app.db, id, given(ctx.body)), slotMessages.adminSaved);
  });

  route(app, slotsApi.retire, async (ctx) => {
    const { id } = given(ctx.params);
    return ok(await retireSlot(app.db, id), slotMessages.adminRetired);
  });

  route(app, slotsApi.restore, async (ctx) => {
    const { id } = given(ctx.params);
    return ok(await restoreSlot(app.db, id), slotMessages.adminRestored);
  });

  route(app, slotsApi.closeDate, async (ctx) => {
    const { date } = given(ctx.params);
    const { message } = given(ctx.body);
    await closeDate(app.db, date, message);
    return ok({ date, message }, slotMessages.adminClosed(date));
  });

  route(app, slotsApi.reopenDate, async (ctx) => {
    const { date } = given(ctx.params);
    const message = await reopenDate(app.db, date);
    return ok({ date, message }, slotMessages.adminReopened(date));
  });
}
