/** The admin's Settings endpoints (see README.md); the rules are `settings.service.ts`'s. */
import type { FastifyInstance } from 'fastify';
import { settingsApi } from '../../domain/delivery-areas.contract.js';
import { ok } from '../../domain/envelope.js';
import { settingMessages } from '../../domain/settings.js';
import { given, route } from '../http/route.js';
import { changeSettings, readShopSettings } from './settings.service.js';

export default async function settingsRoutes(app: FastifyInstance): Promise<void> {
  route(app, settingsApi.get, async () => ok(await readShopSettings(app.db)));

  route(app, settingsApi.change, async (ctx) =>
    ok(await changeSettings(app.db, given(ctx.body)), settingMessages.saved),
  );
}
