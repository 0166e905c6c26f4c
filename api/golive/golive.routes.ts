/** "Make it yours" on the dashboard (see README.md): the checklist and the demo's removal. Admin only. */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../domain/envelope.js';
import { goLiveApi } from '../../domain/go-live.contract.js';
import { goLiveMessages } from '../../domain/go-live.js';
import { route } from '../http/route.js';
import { goLive, removeDemo } from './golive.service.js';

export default async function goLiveRoutes(app: FastifyInstance): Promise<void> {
  // The payments plugin decorates `app.payments` (registered before this one in app.ts); its
  // provider is the one checkout offers, so the checklist reads the same.
  const provider = () => (app.hasDecorator('payments') ? app.payments.methods().provider : null);

  route(app, goLiveApi.get, async () => ok(await goLive(app.db, provider())));

  route(app, goLiveApi.removeDemo, async () => {
    const removed = await removeDemo(app.db, app.media);
    return ok(removed, goLiveMessages.removed(removed));
  });
}
