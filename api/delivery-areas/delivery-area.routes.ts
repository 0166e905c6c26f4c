/** The delivery areas' endpoints (see README.md); the admin's writes are `delivery-area.service.ts`'s. */
import type { FastifyInstance } from 'fastify';
import { deliveryAreasApi } from '../../domain/delivery-areas.contract.js';
import { areaMessages } from '../../domain/delivery-areas.js';
import { ok } from '../../domain/envelope.js';
import { given, route } from '../http/route.js';
import { listAreas } from './delivery-area.repository.js';
import { deleteArea, pasteAreas, putArea } from './delivery-area.service.js';

export default async function deliveryAreaRoutes(app: FastifyInstance): Promise<void> {
  route(app, deliveryAreasApi.list, async () => ok(await listAreas(app.db)));

  route(app, deliveryAreasApi.put, async (ctx) => {
    const { pincode } = given(ctx.params);
    return ok(await putArea(app.db, pincode, given(ctx.body)), areaMessages.saved(pincode));
  });

  route(app, deliveryAreasApi.remove, async (ctx) => {
    const { pincode } = given(ctx.params);
    return ok(await deleteArea(app.db, pincode), areaMessages.removed(pincode));
  });

  route(app, deliveryAreasApi.paste, async (ctx) => {
    const result = await pasteAreas(app.db, given(ctx.body).lines);
    return ok(result, areaMessages.pasted(result.added, result.changed));
  });
}
