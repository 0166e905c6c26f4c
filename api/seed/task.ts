import type { FastifyInstance } from 'fastify';
import { seedDemoCatalogue } from './demo.js';

/** The start-up task: the demo catalogue goes into an empty database when `SEED_DEMO` is on (the default). */
export const demoCatalogueTask = {
  name: 'demo catalogue',
  async run(app: FastifyInstance): Promise<void> {
    if (!app.config.seedDemo) return;
    const added = await seedDemoCatalogue(app.db, app.dialect, app.media);
    if (added.products)
      app.log.info(`demo catalogue: ${added.categories} categories, ${added.products} products`);
  },
};
