/** The admin's offer endpoints (`offerApi`); the rules are `offer.service.ts`'s. */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../domain/envelope.js';
import { offerApi } from '../../domain/offer.contract.js';
import { offerMessages } from '../../domain/shop-offer.js';
import { badRequest } from '../http/errors.js';
import { given, route } from '../http/route.js';
import { chooseOffer, readOffer } from './offer.service.js';

export default async function offerRoutes(app: FastifyInstance): Promise<void> {
  route(app, offerApi.get, async () => ok(await readOffer(app.db)));

  route(app, offerApi.change, async (ctx) => {
    const { code } = given(ctx.body);
    const answer = await chooseOffer(app.db, code);
    if (!answer) throw badRequest(offerMessages.notLive(code ?? ''), { field: 'code' });
    return ok(answer, offerMessages.saved(answer.offer));
  });
}
