import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../api/db/database.js';
import { LEASE_HOLDER, takeLease } from '../../api/db/job-lease.js';
import { buildTestApp, testConfig } from '../support/app.js';
import { DIALECTS, openTestDb } from '../support/databases.js';

/**
 * A periodic job's turn across processes (issue 18): however many ask at once, one gets it per
 * period; the next period it is free again; jobs do not share turns.
 */
for (const dialect of DIALECTS) {
  describe(`job leases on ${dialect}`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await openTestDb(dialect);
    });
    afterAll(() => db.destroy());

    it('gives one of many asking at once the turn, and the next period another', async () => {
      const hour = 3_600_000;
      const t0 = 1_800_000_000_000;
      // On PostgreSQL these run on separate connections of the pool, as separate processes would.
      const first = await Promise.all(
        Array.from({ length: 8 }, () => takeLease(db.kysely, 'sweep-test', hour, t0)),
      );
      expect(first.filter(Boolean)).toHaveLength(1);
      expect(await takeLease(db.kysely, 'sweep-test', hour, t0 + hour - 1)).toBe(false);
      const next = await Promise.all(
        Array.from({ length: 8 }, () => takeLease(db.kysely, 'sweep-test', hour, t0 + hour)),
      );
      expect(next.filter(Boolean)).toHaveLength(1);
      const row = await db.kysely
        .selectFrom('job_leases')
        .selectAll()
        .where('name', '=', 'sweep-test')
        .executeTakeFirstOrThrow();
      expect(Number(row.started_at)).toBe(t0 + hour);
      expect(row.holder).toBe(LEASE_HOLDER);
    });

    it('keeps each job to its own turn', async () => {
      const t0 = 1_900_000_000_000;
      expect(await takeLease(db.kysely, 'job-a', 1000, t0)).toBe(true);
      expect(await takeLease(db.kysely, 'job-b', 1000, t0)).toBe(true);
      expect(await takeLease(db.kysely, 'job-a', 1000, t0 + 10)).toBe(false);
    });

    it("gives the orders' sweep one turn when two apps start on one database", async () => {
      const lines: { msg?: string }[] = [];
      const logger = { level: 'debug', stream: { write: (line: string) => lines.push(JSON.parse(line)) } };
      const apps = await Promise.all([1, 2].map(() => buildTestApp({ config: testConfig(), db, logger })));
      try {
        await Promise.all(apps.map((app) => app.ready()));
        const turns = lines.filter((l) => l.msg === 'idempotency keys: this process sweeps this period');
        expect(turns).toHaveLength(1);
      } finally {
        await Promise.all(apps.map((app) => app.close()));
      }
    });
  });
}
